import pytest

def test_adds():
    assert 1 + 1 == 2

def test_fails():
    assert 2 + 2 == 5, "arithmetic is broken\nsecond line"

@pytest.fixture
def broken():
    raise RuntimeError("fixture exploded")

def test_errors(broken):
    pass

@pytest.mark.skip(reason="not on this platform")
def test_skipped():
    pass

@pytest.mark.parametrize("text", ["<b>bold</b> & \"quoted\""])
def test_markup(text):
    assert text
