package com.example.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChatTest {
  @Test
  void sendsMessage() {
    assertEquals(2, 1 + 1);
  }

  @Test
  void receivesReply() {
    assertEquals("hello", "goodbye", "reply <text> & \"quotes\"");
  }

  @Test
  void throwsOutsideAnAssertion() {
    throw new IllegalStateException("socket closed");
  }

  @Test
  @Disabled("server not ready")
  void reconnects() {
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "b"})
  @DisplayName("trims <input>")
  void trims(String input) {
    assertEquals(input, input.trim());
  }
}
