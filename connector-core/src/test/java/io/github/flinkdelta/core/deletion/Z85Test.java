/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.deletion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.internal.deletionvectors.Base85Codec;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Z85 against the Delta protocol's example, the Z85 spec's example and Kernel's codec. */
class Z85Test {

  @Test
  void decodesTheProtocolsExampleDescriptor() {
    // PROTOCOL.md, "JSON Example 1": random prefix "ab", then the UUID of the file name.
    String pathOrInlineDv = "ab^-aqEH.-t@S}K{vb[*k^";
    UUID id = UUID.fromString("d2c639aa-8816-431a-aaf6-d3fe2512ff61");

    assertThat(Z85.decodeUuid(pathOrInlineDv.substring(2))).isEqualTo(id);
    assertThat("ab" + Z85.encodeUuid(id)).isEqualTo(pathOrInlineDv);
  }

  @Test
  void encodesTheZ85SpecsExample() {
    // ZeroMQ RFC 32: the bytes 86 4F D2 6F B5 59 F7 5B encode to "HelloWorld".
    byte[] bytes = {(byte) 0x86, 0x4F, (byte) 0xD2, 0x6F, (byte) 0xB5, 0x59, (byte) 0xF7, 0x5B};

    assertThat(Z85.encodeBytes(bytes)).isEqualTo("HelloWorld");
    assertThat(Z85.decodeBytes("HelloWorld", 8)).isEqualTo(bytes);
  }

  @Test
  void agreesWithKernelBothWays() {
    Random random = new Random(20);
    for (int length = 0; length <= 41; length++) {
      byte[] bytes = new byte[length];
      random.nextBytes(bytes);
      String ours = Z85.encodeBytes(bytes);

      assertThat(ours).as("%d bytes", length).isEqualTo(Base85Codec.encodeBytes(bytes));
      assertThat(Base85Codec.decodeBytes(ours, length)).isEqualTo(bytes);
      assertThat(Z85.decodeBytes(ours, length)).isEqualTo(bytes);
    }
    for (int i = 0; i < 100; i++) {
      UUID id = new UUID(random.nextLong(), random.nextLong());
      String ours = Z85.encodeUuid(id);

      assertThat(ours).hasSize(Z85.ENCODED_UUID_LENGTH).isEqualTo(Base85Codec.encodeUUID(id));
      assertThat(Base85Codec.decodeUUID(ours)).isEqualTo(id);
      assertThat(Z85.decodeUuid(ours)).isEqualTo(id);
    }
  }

  @Test
  void encodesTheExtremes() {
    byte[] ones = {-1, -1, -1, -1};

    assertThat(Z85.encodeBytes(new byte[4])).isEqualTo("00000");
    assertThat(Z85.encodeBytes(ones)).isEqualTo("%nSc0").isEqualTo(Base85Codec.encodeBytes(ones));
    assertThat(Z85.decodeBytes("%nSc0", 4)).isEqualTo(ones);
    assertThat(Z85.encodeBytes(new byte[0])).isEmpty();
    assertThat(Z85.decodeBytes("", 0)).isEmpty();
  }

  @Test
  void refusesWhatIsNotZ85() {
    assertThatThrownBy(() -> Z85.decodeBytes("Hello World", 8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("11 Z85 characters cannot encode 8 bytes");
    assertThatThrownBy(() -> Z85.decodeBytes("HelloWorld", 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("that takes 5");
    assertThatThrownBy(() -> Z85.decodeBytes("Hel,o", 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Not a Z85 character at index 3: ','");
    assertThatThrownBy(() -> Z85.decodeBytes("Hel\u00e9o", 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("index 3");
    // 85^5 - 1 is more than 2^32 - 1: the largest block is "%nSc0".
    assertThatThrownBy(() -> Z85.decodeBytes("#####", 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exceeds 32 bits");
    assertThatThrownBy(() -> Z85.decodeUuid("HelloWorld"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("20 characters");
  }

  @Test
  void theProtocolsInlineExampleIsALegacyBigEndianBitmapThatKernelAndWeRefuse() {
    // PROTOCOL.md, "JSON Example 3" (rows 3, 4, 7, 11, 18, 29) decodes to the native magic number
    // written big-endian; Kernel reads the magic little-endian and refuses it, and so do we.
    byte[] bytes = Z85.decodeBytes("wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", 40);

    assertThat(bytes).startsWith(0x64, 0x39, 0xD3, 0xD0, 0, 0, 0, 1);
    assertThatThrownBy(() -> RowPositions.fromBitmapData(bytes))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("magic number is " + Integer.reverseBytes(1681511376));
    assertThat(Z85.encodeBytes(bytes))
        .isEqualTo("wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L");
  }
}
