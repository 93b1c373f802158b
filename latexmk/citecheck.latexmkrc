# citecheck for latexmk, from a checkout of the repository:
#   latexmk -r path/to/citecheck/latexmk/citecheck.latexmkrc -pdf main.tex
#
# The hook and citecheck.sty ship inside the Python package (citecore/latexmk/), so that an
# installed wheel has them too (`citecheck install-latex` prints where); this file loads that rc
# file and tells it where it is. Its comments say what it does and which options it reads.

use File::Basename qw(dirname);
use File::Spec;

our $citecheck_dir = File::Spec->catdir(
    dirname(File::Spec->rel2abs($rc_files_read[-1])), File::Spec->updir, 'citecore', 'latexmk');
my $citecheck_rc = File::Spec->catfile($citecheck_dir, 'citecheck.latexmkrc');
do $citecheck_rc;
die "citecheck: $citecheck_rc: $@" if $@;
die "citecheck: cannot read $citecheck_rc: $!\n" unless defined &citecheck_after;
