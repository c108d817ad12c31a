"""The guide's colours (``attnlab.site.figures.palette``): defined once, emitted for CSS and JavaScript the same."""

from __future__ import annotations

import json
import re

from sites import ROOT

from attnlab.site.figures import palette
from attnlab.site.figures.palette import BLOCKED, DEEP, INDIGO, MAP_DEPTH, NAMED, css, diverging, js, mix, rgb, shade

HEX = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b|\brgb\(\s*\d")


def test_mix_clamps_the_map_shade_stops_at_its_depth_the_diverging_ends_are_rust_and_indigo() -> None:
    assert (mix(INDIGO, 0), mix(INDIGO, 1), mix(INDIGO, 2), mix(INDIGO, -1)) == ("#ffffff", INDIGO, INDIGO, "#ffffff")
    assert mix("#000000", 0.5) == "#808080"  # 255 - 255 / 2 = 127.5, rounded half to even: 128
    assert shade(1.0) == mix(INDIGO, MAP_DEPTH) and shade(5.0) == shade(1.0) and shade(0.0) == "#ffffff"
    assert (diverging(1.0), diverging(-1.0), diverging(0.0)) == (INDIGO, palette.RUST, "#ffffff")


def test_the_css_and_the_script_name_every_colour_and_the_ramp_by_channel() -> None:
    properties = dict(re.findall(r"--attnlab-([\w-]+): ([^;]+);", css()))
    assert {name: properties[name] for name in NAMED} == NAMED
    assert [int(properties[f"ramp-{c}"]) for c in "rgb"] == list(rgb(INDIGO))
    assert [int(properties[f"deep-{c}"]) for c in "rgb"] == list(rgb(DEEP))
    assert float(properties["ramp-depth"]) == MAP_DEPTH
    script = js()  # the script sets the same colours as a global
    data = json.loads(script[script.index("= ") + 2:script.rindex(";")])
    assert {name: data[name] for name in NAMED} == NAMED
    assert (data["rampRgb"], data["deepRgb"], data["blockedRgb"], data["rampDepth"]) == (
        list(rgb(INDIGO)), list(rgb(DEEP)), list(rgb(BLOCKED)), MAP_DEPTH)


def test_the_css_ramp_is_the_pythons_shade() -> None:
    # the weight map's CSS formula, evaluated as a browser does, gives the colour Python's figures draw
    sheet = (ROOT / "docs/assets/attnlab.css").read_text(encoding="utf-8")
    assert "255 - (255 - var(--attnlab-ramp-r)) * var(--attnlab-ramp-depth) * var(--w, 0)" in sheet
    for w in (0.0, 0.25, 1.0):
        channels = [round(255 - (255 - c) * MAP_DEPTH * w) for c in rgb(INDIGO)]
        assert "#" + "".join(f"{c:02x}" for c in channels) == shade(w)


def test_no_colour_is_written_anywhere_but_the_palette() -> None:
    paths = [*(ROOT / "attnlab/site").rglob("*.py"), *(ROOT / "docs/assets").glob("*.css"),
             *(ROOT / "docs/assets").glob("*.js")]
    # the code greys are the theme's own variables, darkened for contrast; #000 in a mask is opacity, not colour
    allowed = {"#595959", "#000"}
    found = {p.name: [c for c in HEX.findall(p.read_text(encoding="utf-8")) if c not in allowed]
             for p in paths if p.name != "palette.py"}
    assert len(found) > 20 and {name: colours for name, colours in found.items() if colours} == {}
