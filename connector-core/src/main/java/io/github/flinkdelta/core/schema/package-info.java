/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

/**
 * How rows and tables change shape: merging a new row type into a table's schema, type widening,
 * file layouts, and the exception a commit fails with when another writer changed the table so that
 * the job's files no longer fit ({@link io.github.flinkdelta.core.schema.SchemaChangedException},
 * API).
 */
package io.github.flinkdelta.core.schema;
