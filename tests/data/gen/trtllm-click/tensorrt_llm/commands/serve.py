# Our own excerpt in the style of tensorrt_llm/commands/serve.py before the
# CLI reference YAML: click options on @click.command functions. Names and
# values are made up where they can be.
import click

from tensorrt_llm.logger import severity_map


def help_info_with_stability_tag(text, tag):
    return f"[{tag}] {text}"


@click.command("serve")
@click.argument("model", type=str)
@click.option("--host", type=str, default="localhost",
              help=help_info_with_stability_tag("Hostname.", "beta"))
@click.option("--port", type=int, default=8000)
@click.option("--backend",
              type=ChoiceWithAlias(["pytorch", "tensorrt"], {"trt": "tensorrt"}),
              default="pytorch")
@click.option("--log_level", type=click.Choice(severity_map.keys()), default="info")
@click.option("--tensor_parallel_size", "--tp_size", type=int, default=1)
@click.option("--config", "--extra_llm_api_options", "extra_llm_api_options",
              type=str, default=None)
@click.option("--fraction", type=float, default=BuildConfig.model_fields["x"].default)
@click.option("--trust_remote_code", is_flag=True, default=False)
@click.option("--telemetry/--no-telemetry", default=True)
@click.option("--module_dirs", type=click.Path(exists=True), multiple=True)
@click.option("--old_knob", type=int, default=0,
              help=help_info_with_stability_tag("Old knob; use --new_knob instead.", "deprecated"))
@some_shared_options()
def serve(model, **kwargs):
    pass


@click.command("disaggregated")
@click.option("-c", "--config_file", type=str, default=None)
@click.option("-t", "--server_start_timeout", type=int, default=180)
def disaggregated(config_file, server_start_timeout):
    pass
