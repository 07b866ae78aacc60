"""Counts a Library search's hits over exported corpora, apart from Scriptorium's own code.

Reads JSON on stdin: {"corpora": {"<job id>": "<zip path>"}, "searches": [search, ...]}, where a
search is {"groups": [[term, ...], ...], "excluded": [term, ...], "job": id or null,
"language": code or null} and a term {"words": [...], "prefix": bool} (words of a spaced script,
consecutive) or {"text": "..."} (a run of a script written without spaces, matched as a substring).
Writes, for each search, {"videos": n, "hits": n, "rows": [[video_id, language, line, text], ...],
"in_every_corpus": n}, the last counting a caption again in every corpus that holds it.

A hit is a line of a transcript's txt file (line N is segment N) that holds a term of every group
and no excluded term. Text is taken in its compatibility form (unicodedata's NFKC: fullwidth letters,
halfwidth kana, conjoining jamo), folded with Python's str.casefold() (Unicode's full case folding) and
without Latin diacritics; a word is a run of letters, digits and marks. A caption that two
transcripts of the same video and language hold at the same line counts once.
"""

import csv
import io
import json
import sys
import unicodedata
import zipfile

UNSPACED = [
    (0x1100, 0x11FF), (0x3130, 0x318F), (0xAC00, 0xD7A3),  # Hangul
    (0x3040, 0x309F), (0x30A0, 0x30FF), (0x31F0, 0x31FF), (0xFF66, 0xFF9F),  # kana
    (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2FFFF),  # Han
]


def fold(text):
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text).casefold())
    kept = "".join(c for c in decomposed if not 0x300 <= ord(c) <= 0x36F)
    return unicodedata.normalize("NFC", kept)


def is_word_char(char):
    return unicodedata.category(char)[0] in "LNM"


def is_unspaced(char):
    return char in "ー々〆" or any(low <= ord(char) <= high for low, high in UNSPACED)


def words_of(folded):
    words, word = [], ""
    for char in folded:
        if is_word_char(char) and not is_unspaced(char):
            word += char
        elif word:
            words.append(word)
            word = ""
    if word:
        words.append(word)
    return words


def holds(term, folded, words):
    if "text" in term:
        return fold(term["text"]) in folded
    wanted = [fold(word) for word in term["words"]]
    for at in range(len(words) - len(wanted) + 1):
        window = words[at : at + len(wanted)]
        if window[:-1] != wanted[:-1]:
            continue
        last = window[-1]
        if last == wanted[-1] or (term.get("prefix") and last.startswith(wanted[-1])):
            return True
    return False


def is_hit(search, line):
    folded = fold(line)
    words = words_of(folded)
    if any(holds(term, folded, words) for term in search["excluded"]):
        return False
    return all(any(holds(term, folded, words) for term in group) for group in search["groups"])


def transcripts(path):
    """(video_id, language, lines) of every ok video of a corpus, from index.csv and its txt files."""
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        index_name = next(name for name in names if name.endswith("index.csv"))
        root = index_name[: -len("index.csv")]
        rows = csv.DictReader(io.StringIO(archive.read(index_name).decode("utf-8")))
        for row in rows:
            if row["status"] != "ok":
                continue
            txt = next(name for name in row["files"].split("|") if name.endswith(".txt"))
            text = archive.read(root + txt).decode("utf-8")
            yield row["video_id"], row["language"], text.split("\n")[:-1]


def language_kept(wanted, language):
    if wanted is None:
        return True
    wanted, language = wanted.lower(), language.lower()
    return language == wanted or language.startswith(wanted + "-")


def main():
    request = json.load(sys.stdin)
    library = {job: list(transcripts(path)) for job, path in request["corpora"].items()}
    answers = []
    for search in request["searches"]:
        found = {}
        raw = 0
        for job, held in library.items():
            if search["job"] is not None and job != str(search["job"]):
                continue
            for video_id, language, lines in held:
                if not language_kept(search["language"], language):
                    continue
                for number, line in enumerate(lines):
                    if is_hit(search, line):
                        found[(video_id, language, number, line)] = True
                        raw += 1
        rows = sorted(found)
        answers.append(
            {
                "videos": len({row[0] for row in rows}),
                "hits": len(rows),
                "rows": [list(row) for row in rows],
                "in_every_corpus": raw,
            }
        )
    json.dump(answers, sys.stdout)


main()
