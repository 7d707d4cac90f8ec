/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc;

import org.apache.flink.annotation.PublicEvolving;

/**
 * Unity Catalog refused a call with HTTP 403: the principal the token stands for may not do this to
 * this object (or the token is not accepted for it). Retrying does not help; a grant, or another
 * token, does.
 */
@PublicEvolving
public final class UnityCatalogAccessDeniedException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  public UnityCatalogAccessDeniedException(String message, Throwable cause) {
    super(message, cause);
  }
}
