"""The pictures kept by the pages: each drawn once while kept, at most ``size`` of them, the
least recently asked for leaving first."""

from __future__ import annotations

from adapters.web.kept import KeptPictures


async def test_pictures_are_drawn_once_and_the_least_recently_asked_leaves_first() -> None:
    drawn: list[str] = []

    def draw(name: str) -> bytes:
        drawn.append(name)
        return name.encode()

    kept = KeptPictures(2, max_age=60)

    async def body(name: str) -> bytes:
        response = await kept.answer(name, lambda: draw(name))
        assert response.content_type == "image/png"
        assert response.headers["Cache-Control"] == "public, max-age=60"
        assert response.body is not None
        return bytes(response.body)  # type: ignore[arg-type]

    assert [await body(n) for n in ("a", "b", "a")] == [b"a", b"b", b"a"]
    assert drawn == ["a", "b"]
    await body("c")  # b was asked for least recently: it leaves
    await body("a")
    await body("b")
    assert drawn == ["a", "b", "c", "b"]
