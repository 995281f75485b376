# A made-up excerpt: the old entry point now runs the server module's main().
from atom.entrypoints.openai.api_server import main

if __name__ == "__main__":
    main()
