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
 * What the sink, the source and the SQL layer share: where a table is (a path, or a Unity Catalog
 * name with a connection) and how to reach it: {@link
 * io.github.flinkdelta.common.UnityCatalogOptions} ({@code uc.*}), storage options ({@code
 * hadoop.*}), and the environment variables that secrets may name ({@link
 * io.github.flinkdelta.common.EnvironmentReferences}).
 */
package io.github.flinkdelta.common;
