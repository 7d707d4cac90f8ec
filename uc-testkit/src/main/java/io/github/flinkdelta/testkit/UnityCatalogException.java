/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

/**
 * A request the catalog refuses, answered with an HTTP status and Unity Catalog's error body
 * ({@code error_code}, {@code message}, and a {@code google.rpc.ErrorInfo} detail).
 */
final class UnityCatalogException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int status;
  private final String errorCode;

  UnityCatalogException(int status, String errorCode, String message) {
    super(message);
    this.status = status;
    this.errorCode = errorCode;
  }

  int status() {
    return status;
  }

  String errorCode() {
    return errorCode;
  }

  static UnityCatalogException badRequest(String message) {
    return new UnityCatalogException(400, "INVALID_ARGUMENT", message);
  }

  static UnityCatalogException notFound(String kind, String message) {
    return new UnityCatalogException(404, kind + "_NOT_FOUND", message);
  }

  /** The legacy API answers an existing name with 400, not 409. */
  static UnityCatalogException alreadyExists(String kind, String message) {
    return new UnityCatalogException(400, kind + "_ALREADY_EXISTS", message);
  }

  /** A staging table from which a table was already created. */
  static UnityCatalogException stagingCommitted(String location) {
    return new UnityCatalogException(
        400, "FAILED_PRECONDITION", "Staging table already committed: " + location);
  }

  static UnityCatalogException commitConflict(String message) {
    return new UnityCatalogException(409, "COMMIT_VERSION_CONFLICT", message);
  }

  static UnityCatalogException requirementConflict(String message) {
    return new UnityCatalogException(409, "UPDATE_REQUIREMENT_CONFLICT", message);
  }

  /** The status the UC Delta API ({@code /delta/v1}) answers with. */
  int deltaStatus() {
    return errorCode.endsWith("_ALREADY_EXISTS") ? 409 : status;
  }

  /** The exception type the UC Delta API names in its error body. */
  String deltaType() {
    return switch (errorCode) {
      case "INVALID_ARGUMENT", "FAILED_PRECONDITION" -> "InvalidParameterValueException";
      case "TABLE_NOT_FOUND" -> "NoSuchTableException";
      case "SCHEMA_NOT_FOUND" -> "NoSuchSchemaException";
      case "CATALOG_NOT_FOUND" -> "NoSuchCatalogException";
      case "COMMIT_VERSION_CONFLICT" -> "CommitVersionConflictException";
      case "UPDATE_REQUIREMENT_CONFLICT" -> "UpdateRequirementConflictException";
      case "RESOURCE_EXHAUSTED" -> "ResourceExhaustedException";
      case "PERMISSION_DENIED" -> "PermissionDeniedException";
      case "UNAUTHENTICATED" -> "NotAuthorizedException";
      default ->
          errorCode.endsWith("_ALREADY_EXISTS")
              ? "AlreadyExistsException"
              : "InternalServerErrorException";
    };
  }

  static UnityCatalogException tooManyUnbackfilled(String message) {
    return new UnityCatalogException(429, "RESOURCE_EXHAUSTED", message);
  }
}
