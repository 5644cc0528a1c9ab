"""``RuleExtractor``: a turn read sentence by sentence and clause by clause, each clause given to
the readers in turn; corrections, context and what a turn said before carried along."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from belief_graph.vocabulary import Vocabulary

from .. import when
from ..episode import Episode, Proposal
from ..phrasing import sentences
from .common import (
    _ACTIONS,
    _ADVERBS,
    _ARTICLE,
    _ASIDE,
    _BULLET,
    _CHANGE_FROM,
    _CONTEXT_VALUE,
    _CORRECTING_LEAD,
    _GROWN_ON_ME,
    _HOUSEHOLD,
    _IT_IS,
    _LEAD,
    _MEANT,
    _MOVED_ONTO,
    _NEGATION_WORDS,
    _NOT_TAIL,
    _PLANNED,
    _SUBJECTLESS,
    _VERB_START,
    _WHEN_VALUED,
    Timing,
    _bare_value,
    _clean,
    _Fact,
    _without_leads,
    _without_time,
)
from .everyday import _REQUEST, _everyday, _role_and_employer, _sentence_of, _values
from .turns import (
    _CLAUSE_BREAK,
    _ME_AND,
    _STARTS_WITH_SUBJECT,
    _changed_noun,
    _fact_of,
    _instead,
    _introductions,
    _members,
    _numbers,
    _plausible,
    _removals,
    _same_unit,
    _statements,
    _subject_of,
    _Turn,
    _with_source,
)
from .typed import _as_typed, _typed_plainly
from .unsaid import (
    _CHANGE_WORD,
    _NO_SUBJECTLESS_VALUE,
    _PLACES,
    _REGION,
    _SAYS_IT_CORRECTS,
    _STATED_IN_BRACKETS,
    _names_a_value,
    _of_the_last,
    _same_kind,
    _statements_in_question,
    _without_subject,
)
from .verbs import _keeps_time, _moved_onto, _overlaps, _possessive, _timing, _verb_group


class RuleExtractor:
    """Patterns over first-person statements, possessives and known subjects (see the package
    docstring). Offline and deterministic; weaker than an LLM by design."""

    name = "rules"

    def __init__(self, *, keep_unread: bool = True) -> None:
        self.keep_unread = keep_unread

    def extract(
        self, episode: Episode, *, vocabulary: Vocabulary, known_subjects: Sequence[str]
    ) -> list[Proposal]:
        """The claims the episode's text states, in the order said; a turn with none is kept
        as a text-only proposal of its statements (``keep_unread``), so that search finds it."""
        plain = _typed_plainly(episode.text)
        if plain == episode.text and all(_typed_plainly(c) == c for c in episode.context):
            return self._extract(episode, vocabulary, known_subjects)
        # Read with typographic quotes and emoji made plain; each source is then the same
        # span of the turn as typed (the plain text has the same length).
        read = episode.model_copy(
            update={"text": plain, "context": tuple(_typed_plainly(c) for c in episode.context)}
        )
        return [
            _as_typed(p, plain, episode.text)
            for p in self._extract(read, vocabulary, known_subjects)
        ]

    def _extract(
        self, episode: Episode, vocabulary: Vocabulary, known_subjects: Sequence[str]
    ) -> list[Proposal]:
        turn = _Turn(episode.speaker, known_subjects)
        previous: tuple[str, _Fact] | None = None
        for said in episode.context:
            for sentence in sentences(said):
                for proposal, fact in self._clauses(
                    sentence, episode, vocabulary, turn, previous, in_context=True
                ):
                    turn.remember(proposal)
                    previous = fact or previous
        turn.context_values = dict(turn.values)
        turn.correcting = _SAYS_IT_CORRECTS.search(episode.text) is not None
        proposals: list[Proposal] = []
        for sentence in sentences(episode.text):
            for proposal, fact in self._clauses(sentence, episode, vocabulary, turn, previous):
                if proposal is not None and proposal not in proposals:
                    proposals.append(proposal)
                    turn.remember(proposal)
                previous = fact or previous
        if not proposals and self.keep_unread:
            kept = _statements(episode.text)
            if kept:
                proposals.append(Proposal(sentence=kept, source=kept))
        return proposals

    def _clauses(
        self,
        sentence: str,
        episode: Episode,
        vocabulary: Vocabulary,
        turn: _Turn,
        previous: tuple[str, _Fact] | None,
        *,
        in_context: bool = False,
    ) -> list[tuple[Proposal | None, tuple[str, _Fact] | None]]:
        """The proposals of one sentence, clause by clause, each with the fact it stated."""
        out: list[tuple[Proposal | None, tuple[str, _Fact] | None]] = []
        for aside in _STATED_IN_BRACKETS.finditer(sentence):
            # "Can you suggest a recipe (I'm vegan)?": the aside is a statement of its own.
            said = aside.group("said")
            out.extend(
                self._clauses(said, episode, vocabulary, turn, previous, in_context=in_context)
            )
            sentence = sentence.replace(aside.group(0), " ")
        request = _REQUEST.match(sentence)
        if request is not None:
            sentence = sentence[request.end() :].rstrip(" ?")
        elif sentence.rstrip().endswith("?"):
            # A question says no fact, but a statement said on the way may ("Since I'm vegan,
            # what should I cook?", "As a nurse, ...?"): read those parts on their own.
            for part in _statements_in_question(sentence):
                out.extend(
                    self._clauses(part, episode, vocabulary, turn, previous, in_context=in_context)
                )
            return out
        sentence = _BULLET.sub("", sentence)
        said, introduced = _introductions(sentence, episode.speaker, vocabulary, turn)
        # "Me and my husband live in Cork", "Tom and I live in Cork": "we".
        said = _ME_AND.sub("we", said)
        out.extend((p, None) for p in _with_source(introduced, sentence))
        for clause, source in self._split(said, episode, vocabulary, turn, previous):
            if source not in sentence:
                source = sentence
            clause = turn.resolve_pronoun(clause)
            found, fact = self._read_clause(clause, episode, vocabulary, turn, previous)
            found = [p for p in _with_source(found, source) if _plausible(p, turn)]
            found += [
                p
                for p in _members(clause, source, episode.speaker, vocabulary)
                if (p.predicate, p.object) not in {(f.predicate, f.object) for f in found}
            ]
            removed = _removals(clause, source, found, turn, vocabulary)
            out.extend((p, fact) for p in found)
            out.extend((p, None) for p in removed)
            previous = fact or previous
            if fact is not None:
                turn.last_person = fact[0] if fact[0] != episode.speaker else turn.last_person
        return out

    def _read_clause(
        self,
        clause: str,
        episode: Episode,
        vocabulary: Vocabulary,
        turn: _Turn,
        previous: tuple[str, _Fact] | None,
    ) -> tuple[list[Proposal], tuple[str, _Fact] | None]:
        known = turn.known()
        numbers = _numbers(clause, episode, vocabulary, turn)
        if numbers:
            # The clause may state another fact beside its number ("my car is a 2015 Civic
            # with 140,000 km on it"): kept when it is not the number again.
            said, _ = self._sentence(clause, episode, vocabulary, known, previous)
            counted = {p.predicate for p in numbers}
            values = [(n.object or "").casefold() for n in numbers]
            besides = [
                p
                for p in said
                if p.predicate not in counted
                and not any(_overlaps((p.object or "").casefold(), v) for v in values)
            ]
            return numbers + besides, _fact_of(numbers[-1])
        found, fact = self._sentence(clause, episode, vocabulary, known, previous)
        if (fact is None or fact[1].predicate.endswith(_WHEN_VALUED)) and when.find(
            clause, episode.at
        ).phrase:
            # The time may be the value itself ("my day off is on Monday"); a value read with
            # the time left out stays ("from next week I'm on 10pm to 6am").
            untimed = self._sentence(clause, episode, vocabulary, known, previous, timed=False)
            phrase = when.find(clause, episode.at).phrase
            if not found or (untimed[0] and not _keeps_time(found, untimed[0], phrase)):
                found, fact = untimed
        if not found:
            found = _same_unit(clause, episode, turn)
            fact = _fact_of(found[-1]) if found else fact
        if not found:
            found = _changed_noun(clause, episode, vocabulary, turn)
            fact = _fact_of(found[-1]) if found else fact
        if not found:
            found = _everyday(clause, episode.speaker, vocabulary)
            fact = _fact_of(found[-1]) if found else fact
        if not found and (bare_clause := _without_subject(clause, known)) is not None:
            # Chat leaves the speaker out: "Vegetarian since March", "Allergic to cats",
            # "Work at Stripe now" read as "I'm ..." or "I ...".
            # "Applied ..." reads as "I applied" (then "I'm based in ..."); "Hosting ..." not
            # at all ("I'm hosting" is a plan or an event; changes said so are read before).
            past = re.match(r"^[a-z]+ed\b", bare_clause) is not None
            subjects = (
                ()
                if re.match(r"^[a-z]+ing\b", bare_clause)
                else ("I", "I'm")
                if past
                else ("I'm", "I")
            )
            for subject in subjects:
                found, fact = self._sentence(
                    f"{subject} {bare_clause}", episode, vocabulary, known, None
                )
                found = [
                    p.model_copy(update={"source": clause})
                    for p in found
                    if not _NO_SUBJECTLESS_VALUE.match(p.object or "")
                ]
                if found:
                    break
            fact = fact if found else None
        found = [_instead(p, clause, turn, vocabulary) for p in found]
        return found, fact

    def _split(
        self,
        sentence: str,
        episode: Episode,
        vocabulary: Vocabulary,
        turn: _Turn,
        previous: tuple[str, _Fact] | None,
    ) -> list[tuple[str, str]]:
        """The clauses of a sentence, each with the span of the sentence it is: split at "and",
        "but", "so", a comma before a new subject; a clause without a subject takes the one
        before it ("I live in Mechelen and work in Brussels")."""
        parts = _CLAUSE_BREAK.split(sentence)
        clauses: list[list[str]] = [[parts[0], parts[0]]]
        for joint, part in zip(parts[1::2], parts[2::2], strict=True):
            current = clauses[-1]
            if not part.strip():
                current[0] += joint + part
                current[1] += joint + part
                continue
            # "No wait, it's Lille": the correction and what it corrects stay one clause.
            lead_only = not _without_leads(current[0]).strip(" ,.!:;-") and any(
                word in _CORRECTING_LEAD
                for word in re.findall(r"[a-z]+(?:\s+(?:that|bad))?", current[0].lower())
            )
            if not lead_only and (
                _STARTS_WITH_SUBJECT.match(
                    re.sub(r"^(?:now|then|nowadays)\s*,?\s+", "", part, flags=re.I)
                )
                or turn.names_at_start(part)
                or _everyday(part, episode.speaker, vocabulary)
            ):
                # A part with its own subject, or a request said on its own ("..., answer
                # in Portuguese from now on please").
                clauses.append([part, part])
                continue
            subject = _subject_of(current[0], turn)
            if subject and (
                (
                    _VERB_START.match(part)
                    and self._reads(current[0], episode, vocabulary, turn, previous)
                )
                or self._reads(f"{subject} {part}", episode, vocabulary, turn, previous)
            ):
                clauses.append([f"{subject} {part}", part])
                continue
            current[0] += joint + part
            current[1] += joint + part
        return [
            (text.strip(" ,"), source.strip(" ,")) for text, source in clauses if text.strip(" ,")
        ]

    def _reads(
        self,
        clause: str,
        episode: Episode,
        vocabulary: Vocabulary,
        turn: _Turn,
        previous: tuple[str, _Fact] | None,
    ) -> bool:
        found, _ = self._read_clause(clause, episode, vocabulary, turn, previous)
        return bool(found)

    def _sentence(
        self,
        sentence: str,
        episode: Episode,
        vocabulary: Vocabulary,
        known_subjects: Sequence[str],
        previous: tuple[str, _Fact] | None,
        *,
        timed: bool = True,
    ) -> tuple[list[Proposal], tuple[str, _Fact] | None]:
        window = when.find(sentence, episode.at) if timed else when.Window()
        body = _without_time(sentence, window).strip().rstrip(".!?;").strip()
        # "im vegan now", "ive moved": typed without the apostrophe.
        body = re.sub(r"\b(i)(m|ve|ll|d)\b", r"\1'\2", body, flags=re.IGNORECASE)
        correction = False
        while (lead := _LEAD.match(body)) is not None and lead.end() > 0:
            word = lead.group(0).strip(" ,:;!.-").lower()
            correction = correction or word in _CORRECTING_LEAD
            body = body[lead.end() :]
        led = correction or getattr(known_subjects, "correcting", False)
        meant = _MEANT.match(body) or (_IT_IS.match(body) if led else None)
        if meant is not None:
            correction = True
            body = body[meant.end() :]
        # "Thursday, not Tuesday, sorry": the apology ends the sentence, not the value.
        body = re.sub(r"[,\s-]+(?:sorry|my\s+bad|oops|my\s+mistake)[.!]*$", "", body, flags=re.I)
        not_tail = _NOT_TAIL.search(body)
        if not_tail is not None and not_tail.start() > 0:
            # "..., not Neovim anymore" says it changed; "..., not Lisbon" that it was wrong.
            correction = not _NEGATION_WORDS.search(not_tail.group(0))
            body = body[: not_tail.start()]
        elif correction and not re.search(r"\bnot\b|n't\b", body, re.IGNORECASE):
            # "Actually, ..." without a contrast reads as a correction only without change
            # words: "actually I moved to Porto last week" is news, not a retraction.
            correction = not (window or re.search(r"\b(now|moved|switched|since)\b", body, re.I))
        else:
            correction = correction and not_tail is not None
        negated = bool(_NEGATION_WORDS.search(body))
        body = _CHANGE_FROM.sub(lambda m: f"{m.group(1)} to ", body)
        body = _GROWN_ON_ME.sub(lambda m: f"I like {m.group('liked')}", body)
        body = re.sub(
            r"\b(moved|relocated)\s+(?:(?:up|down|out|over|back|across|away|home|north|south|"
            r"east|west)\s+){0,2}to\b",
            r"\1 to",
            body,
            flags=re.I,
        )
        aside = _ASIDE.search(body)
        if aside is not None and aside.start() > 0:
            body = body[: aside.start()]
        body = re.sub(
            r"\s+(?:instead\s+of|rather\s+than)\s+.*$|\s+(?:there|here)$", "", body, flags=re.I
        )
        said_changed = bool(window.phrase) or _CHANGE_WORD.search(body) is not None
        body = " ".join(_ADVERBS.sub(" ", f" {body} ").split()).strip(" ,")
        if not body:
            return [], None
        if (
            meant is None
            and previous is not None
            and vocabulary.cardinality(previous[1].predicate) == "single"
            and (last := _of_the_last(body, previous))
        ):
            # "It's moved to Friday", "these days it's ramen", "I'm at Globex now": the last
            # fact's new value, said without its noun or verb.
            body, said_changed, referred = last[0], said_changed or last[1], True
        else:
            referred = False
        bare = _bare_value(body)
        found = self._read(
            body,
            episode,
            vocabulary,
            known_subjects,
            previous,
            meant is not None
            or (led and correction and bare)
            # "Berlin now.", "Cardiff since March", "senior designer now" after "junior
            # designer": the last fact's new value.
            or (
                said_changed
                and bare
                and (
                    _names_a_value(body, referred=referred)
                    or _same_kind(body, previous, vocabulary)
                )
            ),
            _timing(window, episode.at),
        )
        if found is None and not_tail is not None and _bare_value(body):
            # "Rox, not Rex" after "my dog is Rex": the fact the wrong value was, corrected.
            old = getattr(known_subjects, "values", {}).get(not_tail.group(1).strip().casefold())
            if old is not None:
                found = (old[0], _Fact(old[1], old[1].replace("_", " "), body, possessive=True))
        if found is None:
            return [], None
        subject, fact = found
        fact = _role_and_employer(fact)
        if fact.predicate in _PLACES and (region := _REGION.search(fact.value)) is not None:
            fact = replace(fact, value=fact.value[: region.start()])  # "Berlin, Germany"
        if fact.where_one_is and window.valid_to is not None and window.valid_to > episode.at:
            return [], None  # "I'm in Berlin until Friday": a stay, not a home
        if negated and fact.predicate == "dislikes" and fact.relation == "dislikes":
            # "I'm not into techno anymore": a like that ended, not a dislike.
            fact = replace(fact, predicate="likes", relation="likes")
        negated = negated or fact.negated
        values = _values(
            fact.value, vocabulary.cardinality(fact.predicate), phrase=fact.predicate in _ACTIONS
        )
        proposals = [
            Proposal(
                subject=subject,
                predicate=fact.predicate,
                object=_ARTICLE.sub("", value),
                sentence=_sentence_of(subject, fact, value, negated),
                source=sentence,
                valid_from=window.valid_from,
                valid_to=window.valid_to,
                negated=negated,
                correction=correction and not negated,
            )
            for value in values
        ]
        if fact.also is not None:
            predicate, relation, value = fact.also
            extra = _Fact(predicate, relation, value)
            proposals.append(
                Proposal(
                    subject=subject,
                    predicate=predicate,
                    object=_ARTICLE.sub("", value),
                    sentence=_sentence_of(subject, extra, value, False),
                    source=sentence,
                    valid_from=window.valid_from,
                    valid_to=window.valid_to,
                )
            )
        return proposals, found

    def _read(
        self,
        body: str,
        episode: Episode,
        vocabulary: Vocabulary,
        known_subjects: Sequence[str],
        previous: tuple[str, _Fact] | None,
        meant: bool,
        timing: Timing,
    ) -> tuple[str, _Fact] | None:
        """Who the clause is about and the fact it states, or ``None``."""
        lowered = body.lower()
        context = _CONTEXT_VALUE.match(body)
        if (
            context is not None
            and previous is not None
            and previous[0] in getattr(known_subjects, "people", ())
            and re.match(r"^(?:i|we)\b", body, re.IGNORECASE)
        ):
            # "I moved to Berlin" after "my sister lives in Porto" is the speaker's move.
            context = None
        if (
            context is not None
            and previous is not None
            and previous[1].predicate != "lives_in"
            and re.match(r"^(?:i|we)\s+(?:'ve\s+)?moved\s+to\b", body, re.IGNORECASE)
            and ("lives_in", episode.speaker) in getattr(known_subjects, "facts", ())
        ):
            # "I moved to Toronto" after "I'm in Stockholm, so Central European time": the
            # home the context gave, not its last fact.
            context = None
        if previous is not None and (context is not None or (meant and len(body.split()) <= 3)):
            subject, last = previous
            value = _clean(context.group(1) if context is not None else body.split(",")[0])
            if not value:
                return None
            return subject, _Fact(last.predicate, last.relation, value, False, last.possessive)
        fact: _Fact | None
        onto = _MOVED_ONTO.match(body)
        switched = _moved_onto(onto, known_subjects, vocabulary, timing) if onto else None
        if switched is not None:
            return switched
        if lowered.startswith(("my ", "our ", "the ")):
            fact = _possessive(body.split(" ", 1)[1], vocabulary)
            return (episode.speaker, fact) if fact else None
        first = re.match(r"^i(?:\s+|(?='))", body, re.IGNORECASE)
        if first is not None:
            fact = _verb_group(body[first.end() :], vocabulary, first_person=True, timing=timing)
            return (episode.speaker, fact) if fact else None
        we = re.match(r"^we(?:\s+|(?='))", body, re.IGNORECASE)
        if we is not None:
            fact = _verb_group(body[we.end() :], vocabulary, first_person=True, timing=timing)
            return (episode.speaker, fact) if fact and fact.predicate in _HOUSEHOLD else None
        named = {n.casefold() for n in known_subjects}
        if _SUBJECTLESS.match(body) and body.split()[0].casefold() not in named:
            # "Starting at Figma on Monday": "I'm starting ..."
            said = body[:1].lower() + body[1:]
            said = f"am {said}" if re.match(r"^[a-z]+ing\b", said) else said
            fact = _verb_group(said, vocabulary, first_person=True, timing=timing)
            return (episode.speaker, fact) if fact else None
        for name in sorted({*known_subjects, episode.speaker}, key=len, reverse=True):
            pattern = re.compile(rf"^{re.escape(name)}(?:'s|’s)?\b", re.IGNORECASE)
            match = pattern.match(body)
            if match is None:
                continue
            rest = body[match.end() :].strip()
            if match.group(0).lower().endswith(("'s", "’s")):
                # "Bob's moving to Rome next month" is "Bob is", not Bob's.
                planned = _PLANNED.match(f"is {rest}") is not None
                fact = (
                    _verb_group(f"is {rest}", vocabulary, first_person=False, timing=timing)
                    if planned
                    else _possessive(rest, vocabulary)
                    or _verb_group(f"is {rest}", vocabulary, first_person=False, timing=timing)
                )
            else:
                fact = _verb_group(rest, vocabulary, first_person=False, timing=timing)
            return (name, fact) if fact else None
        if body[:1].isupper():
            # "Gym days are Tuesdays", "Rent is £950": a fact of the speaker's named by its noun.
            fact = _possessive(body, vocabulary)
            return (episode.speaker, fact) if fact else None
        return None
