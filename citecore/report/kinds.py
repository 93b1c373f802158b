"""What each kind of finding means and what the writer can do about it: the help text of SARIF
rules and of the editor's diagnostics."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from citecore.model import FindingKind


@dataclass(frozen=True, slots=True)
class KindHelp:
    """A kind of finding in words: a title, and what it means with what to do."""

    title: str
    help: str


HELP: Mapping[FindingKind, KindHelp] = {
    FindingKind.UNDEFINED: KindHelp(
        "Cited key not in any bibliography",
        "The document cites a key that no bibliography file defines, so the citation renders "
        "as a question mark or a bare key. Add the entry, or correct the key (keys are "
        "case-sensitive).",
    ),
    FindingKind.DUPLICATE_KEY: KindHelp(
        "Key defined more than once",
        "Two bibliography entries share one key; which one a citation gets depends on the "
        "tool. Rename or remove one of them.",
    ),
    FindingKind.UNPARSED: KindHelp(
        "Bibliography entry that cannot be read",
        "The entry is malformed (an unbalanced brace, a missing comma or key), so it cannot be "
        "cited or checked. The rest of the bibliography is still checked.",
    ),
    FindingKind.DUPLICATE_ENTRY: KindHelp(
        "One work under two keys",
        "Two entries describe the same work (the same DOI, or the same title). Cite one key.",
    ),
    FindingKind.BAD_YEAR: KindHelp(
        "Year that is not a year",
        "The entry's year cannot be read as a year, or is not a plausible publication year.",
    ),
    FindingKind.FUTURE_YEAR: KindHelp(
        "Publication date in the future",
        "The entry is dated after today: a typing error, or a reference made up.",
    ),
    FindingKind.MALFORMED_ID: KindHelp(
        "Identifier with the wrong shape",
        "A DOI, arXiv id, PMID, PMCID or ISBN does not have the shape such identifiers have, so "
        "no registry can resolve it. Copy it again from the publisher's page.",
    ),
    FindingKind.NO_TITLE: KindHelp(
        "Entry without a title",
        "Without a title the reference can be neither rendered completely nor verified.",
    ),
    FindingKind.UNUSED: KindHelp(
        "Entry never cited",
        "The bibliography defines an entry the document never cites (information only).",
    ),
    FindingKind.UNMAPPED: KindHelp(
        "Citation without a source line",
        "The citation was found but could not be placed on a line of the source (information "
        "only).",
    ),
    FindingKind.COMMA_SEPARATED_KEYS: KindHelp(
        "Keys joined by a comma",
        "In pandoc Markdown `[@a,@b]` reads @b as part of @a's locator. Separate citations with "
        "a semicolon: `[@a; @b]`.",
    ),
    FindingKind.NOCITE_NOT_FOUND: KindHelp(
        "Listed with nocite, but in no bibliography",
        "pandoc's `nocite` names a key no bibliography defines: citeproc leaves it out of the "
        "reference list without a word. Add the entry or remove the key.",
    ),
    FindingKind.MISMATCH: KindHelp(
        "Reference differs from the registry record",
        "The registries hold this work, but the entry's title, authors, year, venue or "
        "identifiers differ from their record. The report shows the record; correct what is "
        "wrong.",
    ),
    FindingKind.NOT_FOUND: KindHelp(
        "Reference found in no registry",
        "Every registry consulted answered, and none holds a work with this title and authors: "
        "the reference may be made up. Check it against the publisher's page.",
    ),
    FindingKind.UNVERIFIABLE: KindHelp(
        "Reference that could not be checked",
        "No registry could be asked (offline, no cached answer) or the entry gives too little "
        "to search for. Not an accusation.",
    ),
    FindingKind.RETRACTED: KindHelp(
        "Cited work retracted or under concern",
        "A registry records a retraction, withdrawal or expression of concern for this work.",
    ),
    FindingKind.OUTAGE: KindHelp(
        "Registries that did not answer",
        "Some registries timed out, refused or failed, so some references stay unchecked. Run "
        "again later: nothing was called not found for it.",
    ),
    FindingKind.UNSUPPORTED: KindHelp(
        "Claim the cited source contradicts or does not state",
        "The judge read the cited source and found the claim unsupported there. The report "
        "shows the passages it read.",
    ),
    FindingKind.UNGROUNDED: KindHelp(
        "Support whose passage is not in the source",
        "A judge called the claim supported, but the passage it quoted could not be found in "
        "the source's text, so the support is not proved.",
    ),
    FindingKind.PARTIAL: KindHelp(
        "Claim partly supported",
        "The source supports part of the claim (information only).",
    ),
    FindingKind.UNCONFIRMED: KindHelp(
        "Claim neither confirmed nor contradicted",
        "The judge found neither support nor conflict in the source (information only).",
    ),
    FindingKind.NOT_IN_STORE: KindHelp(
        "No source to judge the claim against",
        "No readable source file was found for this key (or it is not in the Gemini store), "
        "so the claim was not judged (information only).",
    ),
    FindingKind.COVERAGE: KindHelp(
        "Too few papers of the literature pool cited",
        "The project asks for a minimum number of papers from its verified pool; the document "
        "cites fewer.",
    ),
    FindingKind.NOT_IN_POOL: KindHelp(
        "Cited work outside the literature pool",
        "The project's rules ask that citations come from its verified pool of papers.",
    ),
    FindingKind.CUTOFF: KindHelp(
        "Work published after the cut-off date",
        "The project's rules set a publication cut-off; this work was published after it.",
    ),
    FindingKind.MISSED_BY_EXTRACTION: KindHelp(
        "Citation LaTeX saw and citecheck did not",
        "The .aux or .bcf records a citation citecheck's reader missed: a citecheck bug, "
        "please report it with the citing command.",
    ),
    FindingKind.NOT_IN_AUX: KindHelp(
        "Citation LaTeX has not recorded yet",
        "The source cites a key the .aux/.bcf does not list yet: run LaTeX again (information "
        "only).",
    ),
    FindingKind.MISSING_BIBLIOGRAPHY: KindHelp(
        "Bibliography file not found",
        "The document names a bibliography that does not exist (or not yet: `filecontents` "
        "writes it during the build); its citations cannot be checked against it.",
    ),
    FindingKind.INVALID_KEY: KindHelp(
        "Citation key LaTeX or BibTeX will reject",
        "A key with a space LaTeX keeps, or a key list whose brace is never closed (the PDF "
        "prints the citation as undefined); or a key only BibTeX's case-blind matching finds.",
    ),
    FindingKind.BAD_OPTION: KindHelp(
        "Option value citecheck cannot use",
        "An option in the document's metadata, citecheck.toml or the environment has a value "
        "no setting of it accepts (or a name citecheck does not know): it was ignored and the "
        "option kept its default. A strict build fails on it.",
    ),
    FindingKind.INTERNAL_ERROR: KindHelp(
        "References citecheck failed to check (a bug)",
        "Checking this reference hit a bug in citecheck, not a registry outage: running again "
        "will not help. The rest was checked; please report it with the entry.",
    ),
}
