# citecheck for latexmk: check the citations on every build, right after bibtex or biber.
#
# Use it with `latexmk -r path/to/citecheck.latexmkrc -pdf main.tex`, or copy these lines into
# your own latexmkrc. citecheck writes <jobname>.citecheck.tex (read by citecheck.sty, whose
# margin notes it fills), and latexmk reruns LaTeX when that file changes. Strict mode
# (CITECHECK_STRICT=1, `$citecheck_strict = 1;` below, or `strict = true` in a citecheck.toml
# beside the document) makes the build fail with one line per problem:
#   citecheck: main.tex:42: [not_found] smith2020 …
# Other options come from the environment (CITECHECK_OFFLINE=1, CITECHECK_EMAIL=…) or
# citecheck.toml.

use File::Basename qw(dirname);
use File::Spec;

our $citecheck_strict = $citecheck_strict // 0;
our $citecheck_command = $ENV{CITECHECK_COMMAND} // 'citecheck';

# Where citecheck.sty lives: beside this file (found through TEXINPUTS). latexmk evaluates rc
# files as text, so this file's path is the last one it read, not __FILE__; an rc file that
# loads this one with `do` says the folder in $citecheck_dir.
our $citecheck_dir = $citecheck_dir // dirname(File::Spec->rel2abs($rc_files_read[-1]));
ensure_path('TEXINPUTS', "$citecheck_dir//");

$bibtex = 'internal citecheck_after bibtex %O %S';
$biber = 'internal citecheck_after biber %O %S';

sub citecheck_after {
    my ($tool, @args) = @_;
    my $status = system($tool, @args);
    my $base = $args[-1];
    $base =~ s/\.(aux|bcf)$//;
    # $$: this latexmk run, so that the hook prints each problem once per build.
    my @hook = ($citecheck_command, 'latexmk-hook', "$base.tex", '--session', $$);
    push @hook, '--strict' if $citecheck_strict;
    my $check = system(@hook);
    return $status if $status;
    return $check;
}
