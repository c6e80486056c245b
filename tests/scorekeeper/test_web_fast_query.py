"""The live poll's reading of its query string is ``request.GET``'s."""

from __future__ import annotations

from django.test import RequestFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.web.fast_query import query_value

queries = st.lists(st.text(alphabet="vhand=&;%2B+ é0123456789x", max_size=8), max_size=6).map(
    "&".join
)


@settings(max_examples=400, deadline=None)
@given(query=queries, name=st.sampled_from(["v", "hand", "x", ""]))
def test_query_value_is_what_request_get_gives(query: str, name: str) -> None:
    request = RequestFactory().get("/games/1/live/")
    request.META["QUERY_STRING"] = query
    fast = query_value(request, name)
    request = RequestFactory().get("/games/1/live/")
    request.META["QUERY_STRING"] = query
    assert fast == request.GET.get(name)


def test_a_poll_query_reads_its_version() -> None:
    request = RequestFactory().get("/games/1/live/?v=17&hand=6&v=18")
    assert query_value(request, "v") == "18"
    assert query_value(request, "hand") == "6"
    assert query_value(request, "missing") is None
