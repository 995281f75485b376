# bench/lib.sh: the data sets the benches share, sourced by them (run from
# the repository's top). Each copy of corpus/ is a folder c1..cN of WORK,
# so that N copies are N times the same entries under other names.

# corpus_copies WORK N: N copies of corpus/ (its pages too) in WORK/c1..cN
corpus_copies() {
	for i in $(seq 1 "$2"); do
		mkdir -p "$1/c$i"
		cp -r corpus/. "$1/c$i/"
	done
}

# copies_for_mb MB: how many copies hold MB megabytes of launch scripts
# (at least one: MB 0 is the quick mode of tests/bench.sh)
copies_for_mb() {
	per_copy=$(find corpus -name launch.sh -exec cat {} + | wc -c)
	n=$(( ($1 * 1024 * 1024 + per_copy - 1) / per_copy ))
	[ "$n" -ge 1 ] || n=1
	echo "$n"
}

# revs_repo DIR N MODE: a git repository in DIR (no checkout: the benches
# compare revisions) of N entries, the corpus entries copied in turn as
# e(I/100)/nI, and a second commit changing every 100th from n100: its
# --max-num-seqs, else its YAML files' first max_batch_size, and a blank
# line added to its launch.sh. MODE shared: the copies are the
# corpus entries byte for byte, so the N entries hold 118 distinct blobs;
# distinct: each file of copy I ends with a line naming I, so every blob is
# its own. Written as one git fast-import stream: per-file `git add`s of
# 100,000 entries took longer than 7 minutes under load.
revs_repo() {
	git init -q -b main "$1"
	find corpus -name launch.sh -printf '%h\n' | sort | perl -e '
		use strict;
		my ($n, $mode) = @ARGV;
		my @entries = map { chomp; $_ } <STDIN>;
		my (@files, %text);
		for my $e (@entries) {
			opendir(my $d, $e) or die "$e: $!";
			my @names = sort grep { -f "$e/$_" } readdir $d;
			closedir $d;
			push @files, [@names];
			for (@names) { local $/; open(my $f, "<", "$e/$_") or die; $text{"$e/$_"} = <$f>; }
		}
		# the change of a copy of entry k: its files changed, by name
		sub change {
			my ($files) = @_;
			my %c = %$files;
			if ($c{"launch.sh"} =~ /--max-num-seqs [0-9]/) {
				$c{"launch.sh"} =~ s/^(.*?)--max-num-seqs ([0-9]*)/$1--max-num-seqs 7$2/gm;  # sed: the first of each line
			} else {
				for (grep { /\.yaml$/ } keys %c) { $c{$_} =~ s/max_batch_size: ([0-9]*)/max_batch_size: 7$1/; }
			}
			$c{"launch.sh"} .= "\n";
			return { map { $_ => $c{$_} } grep { $c{$_} ne $files->{$_} } keys %c };
		}
		my $mark = 0;
		my %marks;  # shared: a text blob written once, named by its mark
		sub blob {
			my ($t) = @_;
			return $marks{$t} if $mode eq "shared" && $marks{$t};
			$mark++;
			print "blob\nmark :$mark\ndata ", length($t), "\n", $t, "\n";
			$marks{$t} = $mark if $mode eq "shared";
			return $mark;
		}
		sub copy_files {
			my ($i) = @_;
			my $k = $i % @entries;
			my %c = map { $_ => $text{"$entries[$k]/$_"} } @{$files[$k]};
			if ($mode eq "distinct") { $c{$_} .= "# bench copy $i\n" for keys %c; }
			return \%c;
		}
		for my $pass (0, 1) {
			my @m;
			for (my $i = $pass ? 100 : 0; $i < $n; $i += $pass ? 100 : 1) {
				my $c = copy_files($i);
				$c = change($c) if $pass;
				my $dir = "e" . int($i / 100) . "/n$i";
				push @m, "M 100644 :" . blob($c->{$_}) . " $dir/$_\n" for sort keys %$c;
			}
			my $msg = $pass ? "change 1%" : "base";
			print "commit refs/heads/main\ncommitter bench <bench\@example.com> ", 1700000000 + $pass * 60, " +0000\n";
			print "data ", length($msg), "\n$msg\n", @m, "\n";
		}
	' "$2" "$3" | git -C "$1" fast-import --quiet
}

# revs_bench CMD: `servelint CMD HEAD~1 HEAD` (diff or review) against `git
# diff --stat HEAD~1 HEAD` on revs_repo's repositories, blobs shared then
# distinct: the body of bench/diff_revs.sh and bench/review_revs.sh. Reads
# the caller's want, runs, bin, base (may be empty) and work. servelint
# keeps an index of what each script blob sources in the repository's git
# folder (src/source/git/sourced_index.c), so each is timed twice: cold,
# the index removed before every run (a fresh clone's first run, which
# writes it), and warm, the index a previous run of the same command wrote
# (the same revisions: every blob and folder known).
revs_bench() {
	local cmd=$1 mode repo changed t_git t_cold t_warm b_cold b_warm summary
	for mode in shared distinct; do
		repo=$work/$mode
		revs_repo "$repo" "$want" "$mode"
		changed=$(git -C "$repo" diff --name-only HEAD~1 HEAD | xargs -n1 dirname | sort -u | wc -l)
		t_git=$(revs_wall "$repo" git diff --stat HEAD~1 HEAD)
		t_cold=$(revs_cold=1 revs_wall "$repo" "$bin" "$cmd" HEAD~1 HEAD)
		t_warm=$(revs_wall "$repo" "$bin" "$cmd" HEAD~1 HEAD)
		b_cold=$([ -z "$base" ] || revs_cold=1 revs_wall "$repo" "$base" "$cmd" HEAD~1 HEAD)
		b_warm=$([ -z "$base" ] || revs_wall "$repo" "$base" "$cmd" HEAD~1 HEAD)
		summary=$(cd "$repo" && { "$bin" "$cmd" --color never HEAD~1 HEAD || true; } | tail -1)
		awk -v n="$want" -v c="$changed" -v tg="$t_git" -v tc="$t_cold" -v tw="$t_warm" -v bc="$b_cold" -v bw="$b_warm" \
		    -v r="$runs" -v s="$summary" -v m="$mode" -v cmd="$cmd" 'BEGIN {
			printf "repository: %d entries (blobs %s), second commit touches %d; best wall time of %d runs\n", n, m, c, r
			printf "  git diff --stat HEAD~1 HEAD          %7.3f s\n", tg
			printf "  servelint %-6s HEAD~1 HEAD, cold   %7.3f s   %.2fx git (target 2x: %s)\n", cmd, tc, tc / tg,
				tc / tg <= 2 ? "met" : "NOT met"
			printf "  servelint %-6s HEAD~1 HEAD, warm   %7.3f s   %.2fx git (target 2x: %s)\n", cmd, tw, tw / tg,
				tw / tg <= 2 ? "met" : "NOT met"
			if (bc != "")
				printf "  base: servelint %s, cold / warm %7.3f s / %.3f s   %.2fx / %.2fx git\n", cmd, bc, bw, bc / tg, bw / tg
			printf "  servelint: %s\n", s
		}'
	done
}

# revs_wall REPO CMD...: the wall time of CMD in REPO, best of $runs (diff
# and review exit 1 on differences and new findings: any exit is timed);
# with revs_cold=1 servelint's index is removed before each run (not timed)
revs_wall() {
	local repo=$1 best="" t
	shift
	for _ in $(seq 1 "$runs"); do
		[ "${revs_cold:-}" != 1 ] || rm -rf "$repo/.git/servelint"
		t=$( { TIMEFORMAT='%3R'; time (cd "$repo" && "$@" > /dev/null || true); } 2>&1 )
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
	done
	echo "$best"
}
