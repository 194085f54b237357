"""Static figures' titles fit the output area of a 1000-px window with the file browser open."""

from __future__ import annotations


def test_a_long_static_title_is_wrapped_to_fit_a_narrow_output_area():
    """ov.viz.show() breaks a one-line title too wide for a 568-px figure at a comma or colon,
    and leaves short titles and titles with their own line breaks alone."""
    from ovlab.sim.viz.static import TITLE_CHARS, wrap_title

    long = "BATCH:CPU(4): 8 requests every 300 ms, AUTO_BATCH_TIMEOUT 1000 ms"
    title = wrap_title({"layout": {"title": {"text": long}}})["layout"]["title"]
    first, second = title["text"].split("<br>")
    assert first == "BATCH:CPU(4): 8 requests every 300 ms," and len(first) <= TITLE_CHARS
    assert second == "AUTO_BATCH_TIMEOUT 1000 ms" and title["automargin"] is True
    for kept in ("short", "two<br>lines that are long enough to pass the limit of sixty chars"):
        assert wrap_title({"layout": {"title": {"text": kept}}})["layout"]["title"]["text"] == kept
    # a smaller font fits more characters
    small = wrap_title({"layout": {"title": {"text": long, "font": {"size": 13}}}})
    assert "<br>" not in small["layout"]["title"]["text"]
