"""The reading workbench: its library (spelbok.analysis.workbench, workbench_audit) and its
routes in ``spelbok serve`` (spelbok.web.workbench), through Starlette's test client.

The text is untrusted: it reaches no file but the shipped specs and reading files, it is
bounded in size, and nothing is written to disk.
"""

from __future__ import annotations

import os
import threading
import warnings
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from spelbok.analysis import workbench as wb
from spelbok.analysis.workbench_audit import MAX_GAMES, Busy, TimeUp, small_audit
from spelbok.cli.main import cli
from spelbok.errors import SpecError, SpelbokError
from spelbok.lang.loader import SpecText, read_spec

EXAMPLE = wb.open_shipped("example")["text"]
FLOOR_ZERO = "variants/knektpass-floor-zero"


def _edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


# -- checking ------------------------------------------------------------------------------


def test_check_gives_validates_messages_at_their_line_and_column(tmp_path: Path) -> None:
    text = _edit(EXAMPLE, "players:", "playerz:")
    text = _edit(text, "size: 5", "size: many")
    (tmp_path / "spec.yaml").write_text(text, encoding="utf-8")
    out = CliRunner().invoke(cli, ["validate", str(tmp_path / "spec.yaml")]).output
    cli_lines = [line.replace(str(tmp_path / "spec.yaml"), "<pasted>")
                 for line in out.splitlines() if line.startswith(str(tmp_path))]
    got = wb.check(wb.spec_text(text))
    assert not got["ok"]
    assert [p["text"] for p in got["problems"]] == cli_lines
    (unknown,) = [p for p in got["problems"] if "'playerz'" in p["message"]]
    assert unknown["text"].startswith(f"<pasted>:{unknown['line']}:{unknown['col']}: ")
    assert text.splitlines()[unknown["line"] - 1][unknown["col"] - 1:].startswith("playerz")


def test_a_valid_shipped_spec_checks_clean_and_names_its_file() -> None:
    got = wb.check(wb.spec_text(EXAMPLE, near="example"))
    assert got == {"ok": True, "problems": []}
    bad = wb.check(wb.spec_text(EXAMPLE + "bogus: 1\n", near="example"))
    assert bad["problems"][0]["text"].startswith("example.yaml:")


def test_dsl_text_is_checked_by_the_dsl_with_its_position() -> None:
    text = wb.open_shipped("knektpass", "dsl")["text"]
    got = wb.check(wb.spec_text(_edit(text, "players", "playerz"), "dsl", "knektpass"))
    (p,) = got["problems"]
    assert p["text"].startswith(f"knektpass.spel:{p['line']}:{p['col']}: unknown word 'playerz'")
    assert p["hint"] == "players"


def test_warnings_are_shown_beside_errors(tmp_path: Path) -> None:
    from spelbok.validation import diagnose

    # whatever warnings validate gives for a shipped spec, the workbench gives the same
    for name in ("example", "hearts"):
        text = wb.open_shipped(name)["text"]
        errors, warnings_ = diagnose(name)
        got = wb.check(wb.spec_text(text, near=name))
        assert len([p for p in got["problems"] if p["severity"] == "warning"]) == len(warnings_)
        assert not errors and got["ok"]


def test_pasted_text_reaches_no_file_of_the_working_folder(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "base.yaml").write_text(EXAMPLE, encoding="utf-8")
    for value in ("base.yaml", "base", "./base.yaml", str(tmp_path / "base.yaml"), "/etc/passwd"):
        got = wb.check(wb.spec_text(f"spelbok: 1\nextends: {value}\nname: x\n"))
        assert not got["ok"]
        assert got["problems"][0]["text"].startswith("<pasted>:2:10: ")
    # by a shipped name, it extends the shipped spec
    assert wb.check(wb.spec_text("spelbok: 1\nextends: example\nname: x\n"))["ok"]


def test_opened_text_extends_only_within_the_shipped_specs() -> None:
    near = "variants/knektpass-void-any"
    assert read_spec(SpecText("spelbok: 1\nextends: ../knektpass.yaml\n", near=near)).parents
    for value in ("../../README.md", "../../../../etc/passwd", "/etc/passwd"):
        with pytest.raises(SpecError, match="leads out of the folder|absolute path"):
            read_spec(SpecText(f"spelbok: 1\nextends: {value}\n", near=near))


def test_untrusted_text_is_bounded_and_read_safely() -> None:
    with pytest.raises(wb.WorkbenchError, match="too large"):
        wb.spec_text("x" * (wb.MAX_BYTES + 1))
    with pytest.raises(wb.WorkbenchError, match="must be text"):
        wb.spec_text(["spelbok: 1"])
    with pytest.raises(wb.WorkbenchError, match="surface"):
        wb.spec_text(EXAMPLE, "python")
    for near in ("../example", "/etc/passwd", "example.yaml", 3):
        with pytest.raises(wb.WorkbenchError, match="no shipped spec"):
            wb.spec_text(EXAMPLE, near=near)
    got = wb.check(wb.spec_text("a: !!python/object/apply:os.system ['true']\n"))
    assert "YAML tags are not allowed" in got["problems"][0]["text"]


def test_spec_text_is_a_spec_path_everywhere() -> None:
    import spelbok

    text = SpecText(EXAMPLE, near="example")
    assert spelbok.load(text, players=3).name == "Example"
    assert text == SpecText(EXAMPLE, near="example") and len({text, SpecText(EXAMPLE)}) == 2
    assert os.fspath(SpecText(EXAMPLE)) == "<pasted>"


# -- describing ----------------------------------------------------------------------------


def test_describe_of_a_base_spec_has_no_changes() -> None:
    d = wb.describe_spec(wb.spec_text(EXAMPLE, near="example"), players=3)
    assert d["base"] is None and d["changes"] == [] and d["diff"] == []
    assert "With 3 players" in d["describe"]
    assert d["players"] == {"min": 2, "max": 4} and "void_rule" in d["options"]


def test_describe_shows_what_a_variant_changes() -> None:
    opened = wb.open_shipped(FLOOR_ZERO)
    d = wb.describe_spec(wb.spec_text(opened["text"], near=FLOOR_ZERO))
    assert d["base"] == "Knektpass"
    assert d["changes"] == [{"path": "options.floor_zero.default", "change": "false → true"}]
    added = [x["text"] for x in d["diff"] if x["op"] == "+"]
    assert any("floor_zero" in line and "default true" in line for line in added)
    # the changes are listed apart, not in the diff of the prose
    assert not any(x["text"].startswith("Changes against") for x in d["diff"])


def test_editing_a_variant_changes_what_it_changes() -> None:
    opened = wb.open_shipped(FLOOR_ZERO)
    text = _edit(opened["text"], "floor_zero: {default: true}",
                 "floor_zero: {default: true}\n  void_rule: {default: any}")
    d = wb.describe_spec(wb.spec_text(text, near=FLOOR_ZERO))
    assert sorted(c["path"] for c in d["changes"]) == ["options.floor_zero.default",
                                                       "options.void_rule.default"]


# -- readings ------------------------------------------------------------------------------


def test_reading_files_are_found_for_specs_and_variants() -> None:
    assert wb.reading_for("example") == "example"
    assert wb.reading_for(FLOOR_ZERO) == "knektpass-1847"
    assert wb.open_shipped("hearts")["reading"] == "hearts"
    with pytest.raises(wb.WorkbenchError):
        wb.reading_text("../readings/example")


def test_run_readings_gives_each_case_with_its_position() -> None:
    r = wb.run_readings(wb.spec_text(EXAMPLE, near="example"), "example")
    assert r["ok"] and r["failed"] == 0 and r["cases"]
    for case in r["cases"]:
        assert case["status"] == "pass"
        for where in ("start", "end"):
            pos = case[where]
            assert pos is not None and len(pos["seats"]) >= 2
            assert all(isinstance(c, str) for s in pos["seats"] for c in s["hand"])
    first = r["cases"][0]["start"]
    assert sum(s["to_act"] for s in first["seats"]) <= 1


def test_an_edit_that_breaks_a_case_shows_where_it_fails() -> None:
    text = _edit(EXAMPLE, "top_trumps: [JC]", "top_trumps: [JS]")
    r = wb.run_readings(wb.spec_text(text, near="example"), "example")
    (failed,) = [c for c in r["cases"] if c["status"] != "pass"]
    assert failed["name"] == "the jack of clubs is the highest trump"
    assert failed["step"] == 2 and failed["mismatches"][0]["what"] == "legal"
    assert failed["separates"] is True  # the shipped spec passes it: the edit tells them apart
    hands = {c for s in failed["end"]["seats"] for c in s["hand"]}
    played = {c for _, c in failed["end"]["trick"]}
    assert "JC" in hands and "AH" in played


def test_an_edited_reading_file_is_run_and_reaches_no_file(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.yaml").write_text(EXAMPLE, encoding="utf-8")
    reading = wb.reading_text("example")
    only_one = reading.split("\n  - name: the jack", 1)[0] + "\n"
    r = wb.run_readings(wb.spec_text(EXAMPLE, near="example"), "example", only_one)
    assert [c["status"] for c in r["cases"]] == ["pass"]
    for spec in ("mine.yaml", str(tmp_path / "mine.yaml"), "/etc/passwd"):
        r = wb.run_readings(wb.spec_text(EXAMPLE, near="example"), "example",
                            _edit(only_one, "spec: ../example.yaml", f"spec: {spec}"))
        assert not r["ok"] and r["cases"] == [] and "spec" in r["error"]


def test_a_spec_with_errors_runs_no_case() -> None:
    r = wb.run_readings(wb.spec_text("spelbok: 1\nname: x\n"), "example")
    assert r["ok"] is False and r["cases"] == [] and r["error"].startswith("<pasted>:1:1:")


def test_verify_with_another_spec_as_json_does_not_recurse(tmp_path: Path) -> None:
    spec = tmp_path / "jack.yaml"
    spec.write_text(_edit(EXAMPLE, "top_trumps: [JC]", "top_trumps: [JS]"), encoding="utf-8")
    out = CliRunner().invoke(cli, ["verify", "example", "--spec", str(spec), "--json"])
    assert '"separates": true' in out.output and "nested too deeply" not in out.output


# -- the audit -----------------------------------------------------------------------------


def test_a_small_audit_sweeps_the_values_of_one_option() -> None:
    r = small_audit(SpecText(EXAMPLE, near="example"), "void_rule", games=3, seed=2)
    assert [x["label"] for x in r["readings"]] == ["default", "void_rule=any"]
    assert r["matches"] == 6 and r["players"] == 2
    plot = next(p for p in r["plots"] if p["key"] == "length.hands")
    base = [p for p in plot["points"] if p["base"]]
    assert len(base) == 1 and base[0]["label"] == "default"
    assert all(p["lo"] <= p["value"] <= p["hi"] for p in plot["points"])


def test_an_audit_request_is_bounded() -> None:
    text = SpecText(EXAMPLE, near="example")
    with pytest.raises(SpelbokError, match="choose an option"):
        small_audit(text, "no_such_option")
    for games in (0, MAX_GAMES + 1, "10", 2.5):
        with pytest.raises(SpelbokError, match="games must be"):
            small_audit(text, "void_rule", games=games)
    with pytest.raises(SpelbokError, match="players must be"):
        small_audit(text, "void_rule", games=2, players=9)


def test_one_audit_at_a_time_and_a_deadline() -> None:
    from spelbok.analysis import workbench_audit

    text = SpecText(EXAMPLE, near="example")
    with workbench_audit._RUNNING, pytest.raises(Busy):
        small_audit(text, "void_rule", games=2)
    ticks = iter(range(0, 10_000, 100))  # each look at the clock: 100 s later
    with pytest.raises(TimeUp, match="stopped"):
        small_audit(text, "void_rule", games=30, clock=lambda: float(next(ticks)))
    assert workbench_audit._RUNNING.acquire(blocking=False)  # released after a stop
    workbench_audit._RUNNING.release()


# -- the routes ----------------------------------------------------------------------------

pytest.importorskip("starlette")
pytest.importorskip("httpx")
with warnings.catch_warnings():  # newer Starlette would rather have httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from spelbok.web.app import create_app  # noqa: E402


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app())


def test_the_page_lists_the_shipped_specs_and_reading_files(client: TestClient) -> None:
    r = client.get("/workbench")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert '<option value="knektpass" selected>' in r.text
    assert '<option value="knektpass-1847">' in r.text and "/static/workbench.js" in r.text
    assert client.get("/static/workbench.js").status_code == 200
    assert client.get("/static/workbench.css").status_code == 200


def test_open_and_check_through_the_api(client: TestClient) -> None:
    d = client.get("/api/workbench/open", params={"spec": FLOOR_ZERO}).json()
    assert d["file"] == "knektpass-floor-zero.yaml" and d["reading"] == "knektpass-1847"
    body = {"text": d["text"] + "bogus: 1\n", "surface": "yaml", "near": d["spec"]}
    got = client.post("/api/workbench/check", json=body).json()
    (p,) = got["problems"]
    assert (p["line"], p["col"]) == (len(d["text"].splitlines()) + 1, 1)
    for bad in ({"spec": "../../etc/passwd"}, {"spec": "example", "surface": "xml"}, {}):
        r = client.get("/api/workbench/open", params=bad)
        assert r.status_code == 400 and "error" in r.json()
    assert client.get("/api/workbench/reading", params={"name": "nope"}).status_code == 400


def test_describe_and_readings_through_the_api(client: TestClient) -> None:
    body = {"text": EXAMPLE, "near": "example"}
    d = client.post("/api/workbench/describe", json={**body, "players": 3}).json()
    assert "With 3 players" in d["describe"]
    assert client.post("/api/workbench/describe",
                       json={**body, "players": "3"}).status_code == 400
    r = client.post("/api/workbench/readings", json={**body, "reading": "example"}).json()
    assert r["ok"] and r["cases"]
    card = r["cases"][0]["start"]["seats"][0]["hand"][0]
    assert set(card) >= {"name", "rank", "symbol", "colour"}  # drawn as the table draws cards
    assert r["cases"][0]["start"]["trump"].keys() >= {"suit", "symbol"}


def test_audit_through_the_api(client: TestClient) -> None:
    from spelbok.analysis import workbench_audit

    body = {"text": EXAMPLE, "near": "example", "option": "void_rule", "games": 2}
    r = client.post("/api/workbench/audit", json=body)
    assert r.status_code == 200 and r.json()["plots"] and "audit" not in r.json()
    with workbench_audit._RUNNING:
        assert client.post("/api/workbench/audit", json=body).status_code == 409
    assert client.post("/api/workbench/audit",
                       json={**body, "games": MAX_GAMES + 1}).status_code == 400


def test_requests_are_bounded_and_write_nothing(client: TestClient, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    big = {"text": "#" * (wb.MAX_BYTES + 1)}
    r = client.post("/api/workbench/check", json=big)
    assert r.status_code == 400 and "too large" in r.json()["error"]
    r = client.post("/api/workbench/check", content=b"x" * 20, headers={
        "content-length": str(64 * 1024 * 1024)})
    assert r.status_code == 413
    assert client.post("/api/workbench/check", content=b"[1]").status_code == 400
    body: dict[str, Any] = {"text": EXAMPLE, "near": "example"}
    for path in ("check", "describe", "readings"):
        assert client.post(f"/api/workbench/{path}",
                           json={**body, "reading": "example"}).status_code == 200
    assert list(tmp_path.iterdir()) == []


def test_concurrent_checks_do_not_mix_texts(client: TestClient) -> None:
    texts = [_edit(EXAMPLE, "name: Example", f"name: Example {i}") for i in range(4)]
    texts[2] = texts[2] + "bogus: 1\n"
    out: dict[int, Any] = {}

    def run(i: int) -> None:
        out[i] = client.post("/api/workbench/check", json={"text": texts[i]}).json()["ok"]

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == {0: True, 1: True, 2: False, 3: True}
