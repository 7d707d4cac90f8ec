/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.deletion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The descriptor's derived fields, as the protocol defines them and as Kernel derives them. */
class DeletionVectorDescriptorTest {

  private static final UUID ID = UUID.fromString("d2c639aa-8816-431a-aaf6-d3fe2512ff61");
  private static final String FILE = "deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin";

  @Test
  void resolvesTheProtocolsExampleOneAsKernelDoes() {
    DeletionVectorDescriptor dv = DeletionVectorDescriptor.onDisk("ab", ID, 4, 40, 6);

    assertThat(dv).isEqualTo(new DeletionVectorDescriptor("u", "ab^-aqEH.-t@S}K{vb[*k^", 4, 40, 6));
    assertThat(dv.absolutePath("s3://mytable/")).isEqualTo("s3://mytable/ab/" + FILE);
    assertThat(dv.uniqueId()).isEqualTo("uab^-aqEH.-t@S}K{vb[*k^@4");
    assertKernelAgrees(dv, "s3://mytable/");
  }

  @Test
  void resolvesAFileWithoutPrefixUnderAnyTableRoot() {
    DeletionVectorDescriptor dv = DeletionVectorDescriptor.onDisk("", ID, 1, 40, 6);

    for (String root :
        new String[] {
          "s3a://bucket/t", "s3a://bucket/t/", "file:/tmp/t", "file:///tmp/t", "/tmp/t/"
        }) {
      String expected = (root.endsWith("/") ? root : root + "/") + FILE;
      assertThat(dv.absolutePath(root)).as(root).isEqualTo(expected.replace("file:///", "file:/"));
      assertKernelAgrees(dv, root);
    }
  }

  @Test
  void anAbsolutePathIsAUri() {
    DeletionVectorDescriptor dv =
        new DeletionVectorDescriptor("p", "s3://mytable/dir%20x/" + FILE, 4, 40, 6);

    assertThat(dv.absolutePath("s3a://ignored")).isEqualTo("s3://mytable/dir x/" + FILE);
    assertThat(dv.uniqueId()).isEqualTo("ps3://mytable/dir%20x/" + FILE + "@4");
    assertKernelAgrees(dv, "s3a://ignored");
    assertThatThrownBy(
            () ->
                new DeletionVectorDescriptor("p", "relative/" + FILE, 1, 40, 6).absolutePath("/t"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not an absolute URI");
  }

  @Test
  void anInlineDvHasNoOffsetAndNoFile() {
    byte[] bitmap = RowPositionsTest.of(3, 4, 7).toBitmapData();
    DeletionVectorDescriptor dv = DeletionVectorDescriptor.inline(bitmap, 3);

    assertThat(dv.isInline()).isTrue();
    assertThat(dv.offset()).isNull();
    assertThat(dv.sizeInBytes()).isEqualTo(bitmap.length);
    assertThat(dv.uniqueId()).isEqualTo("i" + dv.pathOrInlineDv());
    assertThat(dv.uniqueId()).isEqualTo(KernelDeletionVectors.toKernel(dv).getUniqueId());
    assertThat(KernelDeletionVectors.toKernel(dv).inlineData()).isEqualTo(bitmap);
    assertThatThrownBy(() -> dv.absolutePath("/t"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("inline");
    assertThatThrownBy(() -> new DeletionVectorDescriptor("i", dv.pathOrInlineDv(), 1, 20, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no offset");
  }

  @Test
  void anAbsentOffsetIsNotPartOfTheId() {
    DeletionVectorDescriptor dv =
        new DeletionVectorDescriptor("u", Z85.encodeUuid(ID), null, 40, 6);

    assertThat(dv.uniqueId()).isEqualTo("u" + Z85.encodeUuid(ID));
    assertThat(dv.isInline()).isFalse();
    assertKernelAgrees(dv, "/tmp/t");
  }

  @Test
  void refusesInvalidFields() {
    String uuid = Z85.encodeUuid(ID);

    assertThatThrownBy(() -> new DeletionVectorDescriptor("x", uuid, 1, 40, 6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Unknown deletion vector storage type 'x'");
    assertThatThrownBy(() -> new DeletionVectorDescriptor("u", "short", 1, 40, 6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 20 characters");
    assertThatThrownBy(() -> new DeletionVectorDescriptor("u", "ab," + uuid.substring(1), 1, 40, 6))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new DeletionVectorDescriptor("u", uuid, -1, 40, 6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Negative");
    assertThatThrownBy(() -> new DeletionVectorDescriptor("u", uuid, 1, 0, 6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("size 0 for cardinality 6");
    assertThatThrownBy(() -> new DeletionVectorDescriptor("u", uuid, 1, 40, -1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new DeletionVectorDescriptor("i", "00000", null, 40, 6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot encode 40 bytes");
    assertThatThrownBy(() -> DeletionVectorDescriptor.onDisk("a/b", ID, 1, 40, 6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("letters and digits");
  }

  private static void assertKernelAgrees(DeletionVectorDescriptor dv, String tableRoot) {
    var kernel = KernelDeletionVectors.toKernel(dv);
    assertThat(dv.uniqueId()).isEqualTo(kernel.getUniqueId());
    assertThat(dv.absolutePath(tableRoot)).isEqualTo(kernel.getAbsolutePath(tableRoot));
  }
}
