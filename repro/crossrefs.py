"""Cross-references: every citation of a numbered result (lemma, theorem, corollary, proposition, assumption,
remark, definition) or of a numbered equation in a paper's text, resolved to its target (issue 41, item 2).

A paper's ``crossrefs`` module (``repro.papers.<key>.crossrefs``) is data: the :class:`Patterns` of its text (its
section headings, how it states a result and numbers a display, which citations name another paper's result), the
:class:`Ref` tables typed from the text (``DEFINITIONS``: where each label is stated; ``CITATIONS``: every citation,
with its place and the words around it, quoted), the map ``ENCODED`` (label -> the claim ids of ``bounds.<key>.
claims`` that encode it) and ``SOURCE`` (the file of the paper's text the tables quote). :func:`extract` computes the
two tables from the text, so that a test re-derives them whenever the text is at hand (the suite itself never reads
the text at run time: the tables are what it knows of the paper, like its claims).

:func:`resolve` decides every citation: ``external`` (another paper's numbering: "Theorem 8 in Chen et al.", "[35,
Lemma 1]"), ``definition`` (the paper states the label), ``item`` (a numbered item of a stated assumption),
``not located`` (an equation number the text does not show: the text lost the display's number) or ``dangling``;
and whether the suite encodes the target (a claim id) or the citation's own use (a proof step of
``bounds.<key>.steps``, in the proof the citation sits in, whose ``cites`` names the label). :func:`problems` turns what is wrong into :class:`bounds.audit.Finding` s (kind ``wording``: a
cross-reference bears on no claim's truth): a dangling citation, and numbering drift (one result stated under two
numbers: two statements with the same title and different labels, one label stated twice with different titles, or a
statement whose title says it restates a label the paper never states).
An erratum of the paper's ``errata`` module whose ``explains`` names such a finding and that gives the ``other_place``
comes out of :mod:`repro.errata` as an *inconsistency*.

Readings accepted (no false alarm): a label written with an appendix letter, a parenthesised number ("Lemma (5)") or
a plural with a list or a range ("Lemmas 3 and 4", "Theorems 6-9") cites each label it names; "Assumption 2.4" cites
item 4 of Assumption 2 when Assumption 2 is stated with numbered items, and the second clause of Assumption 1 when
it is stated as a list of properties ("Assumption 1.2"); a label followed by "in", "of" and another work, or inside
a bracketed reference, is another paper's; an equation number the text does not show is *not located*, never
dangling, unless the paper's patterns say that its text shows every display number (``equations_complete``); "(73)"
cites the group (73a), (73b), ... when the paper numbers one so; a title that says it restates ("Theorem 2
(restated)", "Theorem 4 (Theorem 2 restated)") is the restatement it says it is, not a second title. A proof does
not cite its own result past its opening line: such a citation ends that proof (the text went on without a
heading), and the proof in force becomes the one its section heading names ("APPENDIX A: PROOFS OF THEOREM 1 AND
THEOREM 3"). Assumption, named: two different results never share a printed title (a shared title is one result
under two numbers).
The use a step makes of its target is checked only where the step states it (``Step.applies``: the bound it takes
from the cited result at which instance, decided by :func:`bounds.steps.check_use`; :func:`use_checks`); otherwise
it is "resolved, use not checked". A use the cited result does not provide is a finding (:func:`misused`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

import sympy as sp

from bounds.audit import DISCREPANCY, Finding, producer
from bounds.steps import PROVEN, REFUTED, check_use, use_step

#: the kinds of numbered statement whose citations are resolved (algorithms, figures and tables are not)
KINDS = ("Lemma", "Theorem", "Corollary", "Proposition", "Assumption", "Remark", "Definition")
_NUM = r"(?:[A-Z]\.)?\d+(?:\.\d+)*"
_LIST = rf"\(?{_NUM}\)?(?:\s*(?:,\s*and|,|and|-|–|to)\s*{_NUM})*"
CITATION = re.compile(rf"\b(?P<kind>{'|'.join(KINDS)})(?:s|ies)?\s+(?P<nums>{_LIST})")
CITATION_PLURAL = re.compile(r"\b(Corollar)ies\s+(?P<nums>" + _LIST + ")")
EQUATION = re.compile(r"(?<![\w)\]\\^_{])\((?P<num>[1-9]\d{0,2}[a-z]?)\)")
STATUSES = ("definition", "item", "external", "not located", "dangling")


@dataclass(frozen=True)
class Patterns:
    """How one paper's text is laid out: ``heading`` (a regex matching a section heading line), ``definition`` (a
    regex matching the start of a line that states a result; groups ``kind``, ``num`` and optionally ``title``),
    ``equation_tag`` (a regex whose group ``num`` is a display's printed number), ``external`` (a regex that,
    matched right after a citation, makes it another work's), ``equations_complete`` (whether the text shows every
    display number, so that an equation cited and never shown is dangling) and ``items`` (the assumptions stated
    with numbered items or clauses)."""

    heading: str
    definition: str
    equation_tag: str
    external: str = r"^\s*(?:in|of)\s+(?:\(|\[|[A-Z][\w-]+ (?:et al|and|&))"
    external_before: str = r"\[\d+,\s*$"
    equations_complete: bool = False
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ref:
    """One occurrence of a label: the label (``"Lemma 4"``, ``"(12)"``), where (the section heading in force, and
    the proof if inside one) and the printed words around it (a substring of one line of the text)."""

    label: str
    where: str
    quote: str


@dataclass(frozen=True)
class Resolved:
    """One citation resolved: its :class:`Ref`, ``status`` (one of :data:`STATUSES`), the definition it resolves
    to (a :class:`Ref` or None), the encoded ids (claim ids; ``steps#<proof> <label>`` for a step that cites it)."""

    ref: Ref
    status: str
    target: Ref | None = None
    encoded: tuple[str, ...] = ()
    checked: bool = False


def _labels(kind: str, nums: str) -> list[str]:
    """The labels one citation names: "Lemmas 3 and 4" -> Lemma 3, Lemma 4; "Theorems 6-9" -> 6, 7, 8, 9."""
    parts = re.findall(rf"{_NUM}|-|–|to", nums.replace("(", "").replace(")", ""))
    out: list[str] = []
    for i, p in enumerate(parts):
        if p in ("-", "–", "to") and 0 < i < len(parts) - 1 and parts[i - 1].isdigit() and parts[i + 1].isdigit():
            out += [f"{kind} {n}" for n in range(int(parts[i - 1]) + 1, int(parts[i + 1]))]
        elif p not in ("-", "–", "to"):
            out.append(f"{kind} {p}")
    return out


def _cited_labels(text: str) -> list[str]:
    """Every label ``text`` cites, in order (:data:`CITATION`, plurals and ranges read by :func:`_labels`)."""
    return [lab for m in CITATION.finditer(text) for lab in _labels(m.group("kind"), m.group("nums"))]


def _naming(label: str) -> re.Pattern:
    """``label`` as a word: "Lemma 4" is not named by "Lemma 45", nor "(5)" by "(5a)"."""
    return re.compile(rf"(?<![\w.]){re.escape(label)}(?![\w.]*\d)")


def _quote(line: str, start: int, end: int, width: int = 90) -> str:
    """The words of ``line`` around [start, end): at most ``width`` characters either side, cut at a space."""
    lo, hi = max(0, start - width), min(len(line), end + width)
    if lo > 0 and " " in line[lo:start]:
        lo = line.index(" ", lo) + 1
    if hi < len(line) and " " in line[end:hi]:
        hi = line.rindex(" ", end, hi)
    return line[lo:hi].strip()


@dataclass
class _Cursor:
    section: str = "front matter"
    proof: str = ""
    last: str = ""


def _advance(cursor: _Cursor, line: str, patterns: Patterns) -> re.Match | None:
    """Update the place from one line (a heading, a statement, a proof's start); the statement's match if any. A
    heading that says "Proof" opens the proof of the last result it names ("A.4 The Proof of Corollary 1")."""
    stripped = line.strip()
    if re.match(patterns.heading, stripped):
        named = _cited_labels(stripped)
        proves = re.search(r"\bProof\b", stripped) and named          # "B.3 Proof of Theorem 2": that proof
        cursor.section, cursor.proof, cursor.last = stripped[:80], f"proof of {named[-1]}" if proves else "", ""
    stated = re.match(patterns.definition, stripped)
    if stated:
        cursor.last, cursor.proof = f"{stated.group('kind')} {stated.group('num')}", ""
    proof = re.match(r"^\W*Proof(?: of (?P<of>[A-Z][a-z]+ [\dA-Z.]+\d))?", stripped)
    if proof:
        named = proof.group("of").rstrip(".") if proof.group("of") else cursor.last
        cursor.proof = f"proof of {named}" if named else (cursor.proof if cursor.proof.startswith("proof of ")
                                                          else "a proof")        # under a heading "Proof of ..."
    return stated


def extract(text: str, patterns: Patterns) -> tuple[tuple[Ref, ...], tuple[Ref, ...]]:
    """(definitions, citations) of ``text``: every statement of a numbered result or display, and every citation of
    one, in the order of the text, each with its place and quoted words (module docstring: what counts)."""
    definitions: list[Ref] = []
    citations: list[Ref] = []
    cursor = _Cursor()
    for line in text.splitlines():
        stated = _advance(cursor, line, patterns)
        opens_proof = bool(re.match(r"^\W*Proof", line.strip()))        # "Proof of Theorem 3.4." names its result
        where = cursor.section + (f", {cursor.proof}" if cursor.proof else "")
        skip = set()
        if stated:
            definitions.append(Ref(f"{stated.group('kind')} {stated.group('num')}", cursor.section,
                                   _quote(line, 0, 0, 120)))
            skip.add(line.index(stated.group("kind")))
        tags = list(re.finditer(patterns.equation_tag, line))
        definitions += [Ref(f"({m.group('num')})", where, _quote(line, m.start(), m.end())) for m in tags]
        tagged = {m.start("num") - 1 for m in tags}
        for m in CITATION.finditer(line):
            tagged |= set(range(m.start(), m.end()))
            if m.start() in skip:
                continue
            if not opens_proof and _leaves_proof(cursor, _labels(m.group("kind"), m.group("nums"))):
                where = cursor.section + (f", {cursor.proof}" if cursor.proof else "")
            external = re.match(patterns.external, line[m.end():]) or re.search(patterns.external_before,
                                                                                 line[:m.start()])
            prefix = "external " if external else ""
            citations += [Ref(prefix + label, where, _quote(line, m.start(), m.end()))
                          for label in _labels(m.group("kind"), m.group("nums"))]
        citations += [Ref(f"({m.group('num')})", where, _quote(line, m.start(), m.end()))
                      for m in EQUATION.finditer(line) if m.start() not in tagged]
    return tuple(definitions), tuple(citations)


def _leaves_proof(cursor: _Cursor, labels: Sequence[str]) -> bool:
    """A proof does not cite the result it proves (past the line that opens it): a citation of it means the text has
    left that proof without a heading (SSCA's appendix goes on with the theorem's proof after Lemma 4's). The proof in
    force becomes the one the section heading names ("APPENDIX A: PROOFS OF THEOREM 1 AND THEOREM 3": Theorem 1), or
    none. Whether the cursor moved."""
    if not cursor.proof.startswith("proof of ") or cursor.proof.removeprefix("proof of ") not in labels:
        return False
    heading = cursor.section.title() if re.search(r"\bproofs?\b", cursor.section, re.IGNORECASE) else ""
    named = _cited_labels(heading)
    cursor.proof = f"proof of {named[0]}" if named else ""
    return True


def _target(label: str, defined: Mapping[str, Ref], patterns: Patterns) -> tuple[str, Ref | None]:
    """The status of one internal label and the definition it resolves to (module docstring: the readings)."""
    if label in defined:
        return "definition", defined[label]
    head = re.match(r"^(\w+ \d+)\.\d+$", label)
    if head and head.group(1) in defined and head.group(1) in patterns.items:
        return "item", defined[head.group(1)]
    if label.startswith("(") and any(re.fullmatch(rf"\({label[1:-1]}[a-z]\)", d) for d in defined):
        return "definition", next(d for lab, d in defined.items() if re.fullmatch(rf"\({label[1:-1]}[a-z]\)", lab))
    if label.startswith("(") and not patterns.equations_complete:
        return "not located", None
    return "dangling", None


def _proof_of(where: str) -> str:
    """The label whose proof a place is in ("A.2.1 ..., proof of Theorem 6" -> "Theorem 6"; '' outside a proof)."""
    return where.rsplit(", proof of ", 1)[1] if ", proof of " in where else ""


def step_citers(steps: Iterable, label: str, proof_of: str) -> tuple[str, ...]:
    """``steps#<proof> <label>`` of every encoded step of the proof of ``proof_of`` whose ``cites`` names ``label``
    (as a word: "Lemma 4" is not named by "Lemma 45"; an equation "(5)" is named as "(5)" or "eq. (5)"): the
    citation's own use, encoded. A step's proof names its labels as the paper does ("Proof of Theorems 1 and 3")."""
    if not proof_of:
        return ()
    pattern = _naming(label)
    out = []
    for s in steps:
        named = _cited_labels(s.proof)
        if proof_of in named and any(pattern.search(c) for c in s.cites):
            out.append(f"steps#{s.proof} {s.label}")
    return tuple(out)


def resolve(definitions: Sequence[Ref], citations: Sequence[Ref], patterns: Patterns,
            encoded: Mapping[str, tuple[str, ...]], steps: Sequence = ()) -> tuple[Resolved, ...]:
    """Every citation resolved (:class:`Resolved`): its status, the definition it names (the first statement of
    the label) and the encoded ids of its target."""
    defined: dict[str, Ref] = {}
    for d in definitions:
        defined.setdefault(d.label, d)
    out = []
    for c in citations:
        if c.label.startswith("external "):
            out.append(Resolved(c, "external"))
            continue
        status, target = _target(c.label, defined, patterns)
        key = target.label if target is not None else c.label
        ids = tuple(encoded.get(key, ())) + step_citers(steps, key, _proof_of(c.where))
        out.append(Resolved(c, status, target, ids))
    return tuple(out)


@dataclass(frozen=True)
class Counts:
    """The summary of one paper's cross-references (:func:`counts`)."""

    citations: int
    definitions: int
    resolved: int
    external: int
    not_located: int
    encoded: int
    use_checked: int
    problems: tuple[str, ...] = field(default=())


def counts(resolved: Sequence[Resolved], problems_found: Sequence[Finding] = ()) -> Counts:
    """Citations, resolved to a definition (or an item of one), to another work, not located, resolved to an
    encoded id, with their use checked, and the ids of the problem findings."""
    status = [r.status for r in resolved]
    return Counts(len(resolved), len({r.target.label for r in resolved if r.target is not None}),
                  status.count("definition") + status.count("item"), status.count("external"),
                  status.count("not located"), sum(bool(r.encoded) for r in resolved),
                  sum(r.checked for r in resolved), tuple(f.id for f in problems_found))


def _slug(label: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "-", label.lower()).strip("-")


@producer
def dangling(key: str, resolved: Sequence[Resolved]) -> list[Finding]:
    """One finding per label cited that the paper never states (each citing sentence quoted)."""
    by_label: dict[str, list[Ref]] = {}
    for r in resolved:
        if r.status == "dangling":
            by_label.setdefault(r.ref.label, []).append(r.ref)
    return [Finding(f"{key}.crossref.dangling.{_slug(label)}", "wording", (), DISCREPANCY,
                    f"{label} is cited but never stated in the paper",
                    "; ".join(f"{r.where}: \"{r.quote}\"" for r in refs), "cross-reference resolution")
            for label, refs in by_label.items() if refs]


def _title(ref: Ref) -> str:
    """The parenthesised title a statement prints right after its label ('' without one)."""
    m = re.match(rf"\W*{re.escape(ref.label)}\W*\s*\((?P<title>[^()]*(?:\([^()]*\)[^()]*)*)\)", ref.quote)
    return m.group("title").strip().lower() if m else ""


def _restates(ref: Ref, title: str) -> str:
    """The label a restatement's title names ("Theorem 6 (Theorem 1 restated)" -> "Theorem 1"); '' otherwise."""
    if "restat" not in title:
        return ""
    found = CITATION.search(title.title())
    return _labels(found.group("kind"), found.group("nums"))[0] if found else ref.label


def _drifted(a: Ref, ta: str, b: Ref, tb: str) -> str:
    """What drifted between two statements ('' if nothing): one title under two labels, one label under two titles
    (a title that says it restates is no title of its own), or a restatement of another label."""
    if ta and ta == tb and a.label != b.label and not _restates(a, ta):
        return f"\"{ta}\" is stated as {a.label} and as {b.label}"
    if a.label == b.label and ta and tb and ta != tb and not (_restates(a, ta) or _restates(b, tb)):
        return f"{a.label} is stated twice, as \"{ta}\" and as \"{tb}\""
    return ""


@producer
def drift(key: str, definitions: Sequence[Ref]) -> list[Finding]:
    """Numbering drift: one title stated under two labels, one label stated twice under two titles, or a statement
    whose title says it restates a label the paper states under another one ("Theorem 6 (Theorem 1 restated)" where
    Theorem 1 says otherwise is read as the restatement it says it is, hence consistent when the label it names
    exists; a restatement of a label never stated is drift)."""
    stated = [(d, _title(d)) for d in definitions if not d.label.startswith("(")]
    labels = {d.label for d, _ in stated}
    out = []
    for i, (a, ta) in enumerate(stated):
        named = _restates(a, ta)
        if named and named not in labels:
            out.append(Finding(f"{key}.crossref.drift.{_slug(a.label)}.{_slug(named)}", "wording", (), DISCREPANCY,
                               f"numbering drift: {a.label} restates {named}, which the paper never states",
                               f"{a.where}: \"{a.quote}\"", "cross-reference resolution"))
        for b, tb in stated[i + 1:]:
            what = _drifted(a, ta, b, tb)
            if what:
                out.append(Finding(f"{key}.crossref.drift.{_slug(a.label)}.{_slug(b.label)}", "wording", (),
                                   DISCREPANCY, f"numbering drift: {what}",
                                   f"{a.where}: \"{a.quote}\"; {b.where}: \"{b.quote}\"",
                                   "cross-reference resolution"))
    return out


def use_checks(resolved: Sequence[Resolved], steps: Sequence, claims: Sequence) -> tuple[Resolved, ...]:
    """The citations whose use is checked: a citation is checked when a step it resolves to (``steps#...``) states
    how it applies the cited result (``Step.applies``, a :class:`bounds.steps.Use` whose label names the citation's
    target and whose claim is encoded) and :func:`bounds.steps.check_use` decides that use (proven or refuted); any
    other use stays "resolved, use not checked" (module docstring)."""
    by_id = {c.id: c for c in claims}
    out = []
    for r in resolved:
        decided = [u for u in applied_uses(r, steps, by_id) if u[2].status in (PROVEN, REFUTED)]
        out.append(Resolved(r.ref, r.status, r.target, r.encoded, bool(decided)))
    return tuple(out)


def applied_uses(r: Resolved, steps: Sequence, by_id: Mapping) -> list[tuple]:
    """(step, use, check) for each use of the citation ``r``'s target stated by a step it resolves to (the use's
    claim among the target's encoded claims)."""
    label = r.target.label if r.target is not None else r.ref.label
    cited = [s for s in steps if f"steps#{s.proof} {s.label}" in r.encoded]
    return [(s, u, _use_check(s, u, by_id[u.claim])) for s in cited for u in s.applies
            if u.claim in by_id and u.claim in r.encoded
            and _naming(label).search(u.label)]


_USE_CHECKS: dict = {}


def _use_check(step, use, claim):
    """:func:`bounds.steps.check_use`, once per process and content of the use's step (:func:`bounds.steps.use_step`;
    sympy's ``srepr`` keeps the symbols' assumptions, which decide it)."""
    derived = use_step(step, use, claim)
    key = (sp.srepr(derived.lhs), sp.srepr(derived.rhs), derived.relation, sp.srepr(tuple(derived.hypotheses)),
           sp.srepr(tuple(derived.space.items())))
    if key not in _USE_CHECKS:
        _USE_CHECKS[key] = check_use(step, use, claim)
    return _USE_CHECKS[key]


@producer
def misused(key: str, resolved: Sequence[Resolved], steps: Sequence, claims: Sequence) -> list[Finding]:
    """One finding per applied use a cited result does not provide (:func:`bounds.steps.check_use` refutes it, with
    the instance): the citing step takes more than the encoded result states there. It bears on the claims the
    citing proof establishes (the gap is in that proof), on the reading its step belongs to."""
    by_id, out, seen = {c.id: c for c in claims}, [], set()
    for r in resolved:
        for step, use, result in applied_uses(r, steps, by_id):
            fid = f"{key}.crossref.use.{_slug(step.proof)}.{_slug(step.label)}.{_slug(use.label)}"
            if result.status != REFUTED or fid in seen:
                continue
            seen.add(fid)
            reading = "; ".join(f"{e}: {side}" for e, side in step.variant)
            out.append(Finding(fid, "statement-vs-proof", tuple(step.claims), DISCREPANCY,
                               f"{step.proof}, {step.label} takes {use.bound} from {use.label} ({use.claim}), which "
                               f"states less there" + (f" (reading {reading})" if reading else ""),
                               f"\"{r.ref.quote}\"; at {result.point}: {use.label} gives {result.sides[0]:.6g}, the "
                               f"step takes {result.sides[1]:.6g}", "cross-reference use"))
    return out


def problems(key: str, module, steps: Sequence = (), claims: Sequence = ()) -> list[Finding]:
    """The cross-reference findings of one paper from its ``crossrefs`` module (dangling citations, numbering
    drift, and uses of a cited result that it does not provide where a step states its use)."""
    resolved = resolve(module.DEFINITIONS, module.CITATIONS, module.PATTERNS, module.ENCODED, steps)
    return (list(dangling(key, resolved)) + list(drift(key, module.DEFINITIONS))
            + list(misused(key, resolved, steps, claims)))


def summary(key: str, module, steps: Sequence = (), claims: Sequence = ()) -> Counts:
    """The counts of one paper's cross-references, the use of encoded targets checked where a step states it."""
    resolved = resolve(module.DEFINITIONS, module.CITATIONS, module.PATTERNS, module.ENCODED, steps)
    return counts(use_checks(resolved, steps, claims), problems(key, module, steps, claims))


_HEAD_STARTS = KINDS + ("(", "Eq.", "Display", "Update")


def encoded_labels(claims: Iterable, extra: Mapping[str, tuple[str, ...]] | None = None) -> dict[str, tuple[str, ...]]:
    """label -> the ids of the encoded claims that state it, read from each claim's ``location`` (computed, never
    typed): a location that starts with a label ("Lemma 1, (40)-(42), Section V-B", "(8)-(9), Section III-A",
    "Display (12), proof of ...") encodes the result labels of its head (up to the first comma or parenthesis) or,
    without one, the equation numbers of its head (a range "(35)-(36)" names both ends). Proofs, derived forms and
    discussion are not statements of a label. ``extra``: further pairs the paper module names (typed from the
    claims' own locations)."""
    out: dict[str, list[str]] = {}
    for claim in claims:
        loc = claim.location
        if not loc.startswith(_HEAD_STARTS):
            continue
        head = re.split(r",\s|\s\(", loc, maxsplit=1)[0] if loc.startswith(KINDS) else loc.split(", ")[0]
        found = CITATION.search(head)
        labels = _labels(found.group("kind"), found.group("nums")) if found else \
            [f"({n})" for n in re.findall(r"\((\d+[a-z]?)\)", head.split(" (Section")[0])]
        for label in labels:
            out.setdefault(label, []).append(claim.id)
    for label, ids in (extra or {}).items():
        out.setdefault(label, []).extend(i for i in ids if i not in out[label])
    return {k: tuple(v) for k, v in out.items()}


def crossref_lines(record, findings: Sequence = ()) -> list[str]:
    """The detail page's "Cross-references" subsection for the paper ``record`` (:class:`repro.paper.Paper`), whose
    audit names its ``crossrefs`` module as ``CROSSREFS``: the counts of :func:`summary`, and each problem found
    (a finding among ``findings``) with the erratum that explains it, the uses checked, or why none can be (a paper
    without encoded proof steps). Nothing without such a module."""
    module = getattr(record.audit(), "CROSSREFS", None)
    if module is None:
        return []
    c = summary(record.key, module, record.encoded_steps(), record.claims)
    errata = record.errata_module()
    explains = {f: e.id for e in getattr(errata, "ERRATA", ()) for f in e.explains}
    shown = [f for f in findings if f.id in c.problems] or problems(record.key, module, record.encoded_steps(),
                                                                    record.claims)
    listed = [f"- `{f.id}`: {f.summary}" + (f" (erratum `{explains[f.id]}`, [errata](audit.md))"
                                           if f.id in explains else "") for f in shown]
    uses = checked_uses(module, record.encoded_steps(), record.claims)
    return ['<a id="cross-references"></a>', "", "## Cross-references", "",
            f"{c.citations} citations of a numbered result or display in the paper's text: "
            f"{c.resolved} resolved to a statement of the paper ({c.definitions} labels), {c.external} to another "
            f"work, {c.not_located} to a display number the text does not show; {c.encoded} resolved to an encoded "
            f"claim or proof step, {c.use_checked} with their use checked (the others: resolved, use not checked); "
            f"{len(c.problems)} problems found.", "", *listed, *([""] if listed else []),
            *([f"Uses checked (the bound a proof step takes from the result it cites, at the instance it applies): "
               f"{'; '.join(uses)}.", ""] if uses else []),
            *([f"No citation's use can be checked, because no proof step is encoded: {record.no_inventory_reason()}.", ""]
              if not record.encoded_steps() else [])]


def checked_uses(module, steps: Sequence, claims: Sequence) -> list[str]:
    """One phrase per use a step states, with what :func:`bounds.steps.check_use` decides ("Lemma 3 in (5) of the
    proof of Theorem 6: provided"), in the order of the text, each once."""
    by_id = {c.id: c for c in claims}
    out: list[str] = []
    for r in resolve(module.DEFINITIONS, module.CITATIONS, module.PATTERNS, module.ENCODED, steps):
        for step, use, result in applied_uses(r, steps, by_id):
            verdict = {PROVEN: "provided", REFUTED: "not provided"}.get(result.status, "not decided")
            reading = "".join(f" (reading {erratum}: {side})" for erratum, side in step.variant)
            proof = "p" + step.proof.split(" (")[0][1:]
            phrase = f"{use.label} in {step.label} of the {proof}{reading}: {verdict}"
            if phrase not in out:
                out.append(phrase)
    return out


def render_rows(refs: Sequence[Ref]) -> str:
    """The rows of a paper module's typed table (``TEXT_DEFINITIONS`` or ``CITATIONS``) for ``refs``, one per line,
    as the paper modules hold them: how the tables are regenerated from :func:`extract` after a pattern changes."""
    return "\n".join(f"    ({r.label!r}, {r.where!r}, {r.quote!r})," for r in refs)
