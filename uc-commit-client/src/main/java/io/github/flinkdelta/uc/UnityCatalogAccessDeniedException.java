/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc;

import org.apache.flink.annotation.PublicEvolving;

/**
 * Unity Catalog refused a call for want of a privilege (HTTP 403): the connection reaches the
 * catalog and its token is valid, but its principal may not do this to this object. Retrying does
 * not help; a grant does.
 */
@PublicEvolving
public final class UnityCatalogAccessDeniedException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  public UnityCatalogAccessDeniedException(String message, Throwable cause) {
    super(message, cause);
  }
}
