"""Frame size limit and short, input-free validation errors."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.guard.messages import (
    MAX_ERROR_CHARS,
    MAX_FRAME_BYTES,
    frame_size,
    frame_size_error,
    validation_error_message,
)


class Play(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["play"]
    card: int = Field(ge=0, le=47)
    seat: int


def error_of(data: object) -> ValidationError:
    with pytest.raises(ValidationError) as info:
        if isinstance(data, str | bytes):
            Play.model_validate_json(data)
        else:
            Play.model_validate(data)
    return info.value


def test_default_frame_limit_is_4_kib():
    assert MAX_FRAME_BYTES == 4096
    assert frame_size_error("x" * 4096) is None
    assert frame_size_error(b"x" * 4096) is None
    assert frame_size_error("x" * 4097) == "Message too large (the limit is 4096 bytes)."
    assert frame_size_error(b"x" * 4097) is not None
    assert frame_size_error(bytearray(5000)) is not None
    assert frame_size_error(memoryview(b"x" * 10)) is None


def test_text_frames_are_measured_in_utf8_bytes():
    euro = "€"  # 3 bytes in UTF-8
    assert frame_size(euro * 1365) == 4095
    assert frame_size_error(euro * 1365) is None
    assert frame_size_error(euro * 1366) is not None  # 1366 characters but 4098 bytes
    assert frame_size_error("x" * 10, limit=9) is not None
    assert frame_size_error("", limit=0) is None


def test_validation_error_is_one_short_line():
    message = validation_error_message(error_of({"type": "play", "card": "ace", "seat": 1}))
    assert message == (
        "Invalid message: card: Input should be a valid integer, "
        "unable to parse string as an integer."
    )


def test_validation_error_counts_further_problems():
    message = validation_error_message(error_of({"type": "bid", "card": 99}))
    assert message.startswith("Invalid message: type: Input should be 'play'")
    assert message.endswith("(and 2 more problems).")
    one_more = validation_error_message(error_of({"type": "play", "card": 99}))
    assert one_more.endswith("(and 1 more problem).")


def test_validation_error_never_echoes_the_input():
    huge = "<script>alert(1)</script>" + "A" * 100_000
    message = validation_error_message(error_of({"type": "play", "card": huge, "seat": 0}))
    assert "<script>" not in message and "AAAA" not in message
    assert "input_value" not in message and "Traceback" not in message
    assert len(message) <= MAX_ERROR_CHARS
    # pydantic's own str() would have leaked it: that is what the helper is for.
    assert "<script>" in str(error_of({"type": "play", "card": huge, "seat": 0}))


def test_attacker_chosen_field_names_are_cut_and_cleaned():
    data = {"type": "play", "card": 1, "seat": 0, "\x1b[31m" + "k" * 5000: 1}
    message = validation_error_message(error_of(data))
    assert len(message) <= MAX_ERROR_CHARS
    assert "\x1b" not in message
    assert "kkkkkkkkkkkkkkkkkkkkkkkk" not in message  # at most 24 characters of a path part
    assert "Extra inputs are not permitted" in message


def test_malformed_json_gives_a_short_line():
    message = validation_error_message(error_of('{"type": "play", "card": '))
    assert message.startswith("Invalid message: Invalid JSON")
    assert len(message) <= MAX_ERROR_CHARS


def test_nested_paths_read_naturally():
    class Batch(BaseModel):
        plays: list[Play]

    with pytest.raises(ValidationError) as info:
        Batch.model_validate({"plays": [{"type": "play", "card": 1, "seat": "x"}]})
    assert validation_error_message(info.value).startswith("Invalid message: plays[0].seat:")


def test_a_tiny_limit_is_respected():
    message = validation_error_message(error_of({"type": "bid"}), limit=40)
    assert len(message) <= 40 and message.endswith("problems).")
