"""`rulebase mcp` end to end: the official SDK's own client (stdio_client and ClientSession)
against a real server process on the real index: initialize, tools/list, and each tool's answer
with its record ids, release dates and whether they are in force now."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

mcp = pytest.importorskip("mcp", reason="the mcp extra (pip install -e '.[mcp]') is not installed")

import anyio  # noqa: E402  (the SDK's own dependency)

TOOLS = {"lookup", "search", "card", "define", "history", "changes", "cite", "check"}


def session_run(index_dir: Path, calls: list[tuple[str, dict]]) -> tuple[object, list[str], list]:
    """Start `rulebase mcp` as a client would, initialize, list the tools and make `calls`."""

    async def main():
        params = mcp.StdioServerParameters(
            command=sys.executable, args=["-m", "rulebase", "--index", str(index_dir), "mcp"],
            env={key: value for key, value in os.environ.items() if key.startswith(("RULEBASE_", "XDG_"))})
        with anyio.fail_after(300):
            async with mcp.stdio_client(params) as streams, mcp.ClientSession(streams[0], streams[1]) as session:
                init = await session.initialize()
                listed = await session.list_tools()
                results = [await session.call_tool(name, args) for name, args in calls]
                return init, [tool.name for tool in listed.tools], results

    return anyio.run(main)


@pytest.fixture(scope="module")
def answers(index_dir):
    return session_run(index_dir, [
        ("lookup", {"ref": "702.19b"}),
        ("lookup", {"ref": "999.9z"}),
        ("cite", {"number": "702.17", "as_of": "2010-06-01"}),
        ("check", {"text": "Trample: rule 702.17.\nExalted: CR 502.83a\nrule 999.9z", "as_of": "2010"}),
        ("search", {"query": "deathtouch trample", "limit": 3}),
        ("define", {"term": "trample"}),
        ("card", {"name": "Blood Moon"}),
        ("history", {"ref": "502.83a"}),
        ("changes", {"from_date": "2009-05-01", "to_date": "2009-07-11"}),
        ("lookup", {"ref": "IPG HCE"}),
        ("lookup", {"ref": "IPG"}),
    ])


def test_initialize_names_the_server_and_lists_every_tool(answers):
    init, names, _ = answers
    assert init.server_info.name == "rulebase"
    assert set(names) == TOOLS


def test_lookup_702_19b_answers_with_trample_and_its_record(answers):
    result = answers[2][0]
    assert not result.is_error
    data = result.structured_content
    assert data["number"] == "702.19b" and data["source"] == "cr"
    assert data["text"].startswith("The controller of an attacking creature with trample first assigns damage")
    first = data["records"][0]
    assert first["id"] == data["id"] and first["in_force_now"] is True and first["release"] == data["id"].split("@")[1]


def test_a_number_that_names_nothing_is_a_tool_error_with_the_cli_message(answers):
    result = answers[2][1]
    assert result.is_error
    assert "no rule, record or page matches '999.9z'" in result.content[0].text


def test_cite_and_check_answer_as_the_commands_do(answers):
    cited, checked = answers[2][2].structured_content, answers[2][3].structured_content
    assert cited["state"] == "renumbered" and cited["now"]["number"] == "702.19"
    assert {r["id"]: r["in_force_now"] for r in cited["records"]}["cr:702.17@2009-07-11"] is False
    assert [(p["line"], p["state"]) for p in checked["problems"]] == [(1, "renumbered"), (2, "unknown"), (3, "unknown")]


def test_every_other_tool_answers_with_records(answers):
    for result in answers[2][4:]:
        assert not result.is_error, result.content
        data = result.structured_content
        assert data["records"] and all({"id", "release", "in_force_now"} == set(r) for r in data["records"])
    search = answers[2][4].structured_content
    assert len(search["hits"]) == 3 and all("in_force_now" in hit for hit in search["hits"])
    assert answers[2][5].structured_content["term"] == "trample"
    assert answers[2][7].structured_content["lineages"][0]["steps"][-1]["number"] == "702.83a"


def test_lookup_gives_the_judges_desk_as_the_cli_json_does(answers):
    """An infraction by its shorthand, with its penalty and the JAR's fix; a document's contents."""
    infraction = answers[2][9].structured_content
    assert infraction["infraction"]["number"] == "2.3" and infraction["infraction"]["penalty"] == "Warning"
    assert infraction["infraction"]["regular_rel"]["id"].startswith("jar:")
    contents = answers[2][10].structured_content["contents"]
    assert contents["source"] == "ipg" and any(s["number"] == "2.3" for s in contents["sections"])
