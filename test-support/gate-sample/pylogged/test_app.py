from app import parse


def test_parse():
    assert parse("x") == 0
    assert parse("12") == 13
