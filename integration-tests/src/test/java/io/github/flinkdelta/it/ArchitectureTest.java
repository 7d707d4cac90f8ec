/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import java.lang.annotation.Annotation;
import java.util.List;
import org.apache.flink.annotation.Experimental;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.Public;
import org.apache.flink.annotation.PublicEvolving;
import org.junit.jupiter.api.Test;

/**
 * The public API line and the module arrows, checked on the compiled classes of the published
 * modules: {@code table → sink, source → common → uc → core}, with sink and source blind to each
 * other and no two packages depending on each other; Kernel's internals reached only through the
 * adapter {@code core.kernel}; a public class is API ({@code @PublicEvolving}, {@code
 * Experimental}, {@code @Public}) or internal ({@code @Internal}, or in an {@code internal}
 * package), and the Quickstart, the file users copy, uses the API alone.
 */
class ArchitectureTest {

  private static final String BASE = "io.github.flinkdelta";
  private static final String CORE = BASE + ".core..";
  private static final String UC = BASE + ".uc..";
  private static final String COMMON = BASE + ".common..";
  private static final String SINK = BASE + ".sink..";
  private static final String SOURCE = BASE + ".source..";
  private static final String TABLE = BASE + ".table..";
  private static final String CATALOG = BASE + ".catalog..";
  private static final String TESTKIT = BASE + ".testkit..";
  private static final String[] LIBRARY = {CORE, UC, COMMON, SINK, SOURCE, TABLE, CATALOG, TESTKIT};
  private static final List<Class<? extends Annotation>> API_MARKERS =
      List.of(PublicEvolving.class, Experimental.class, Public.class);

  /** The project's main classes: no test classes, no test jars. */
  private static final JavaClasses CLASSES =
      new ClassFileImporter().withImportOption(ArchitectureTest::isMainClass).importPackages(BASE);

  @Test
  void theClassesOfEveryModuleAreChecked() {
    assertThat(CLASSES.contain(BASE + ".core.table.DeltaTable")).isTrue();
    assertThat(CLASSES.contain(BASE + ".uc.UnityCatalogConnection")).isTrue();
    assertThat(CLASSES.contain(BASE + ".common.TableTarget")).isTrue();
    assertThat(CLASSES.contain(BASE + ".sink.DeltaSink")).isTrue();
    assertThat(CLASSES.contain(BASE + ".source.DeltaSource")).isTrue();
    assertThat(CLASSES.contain(BASE + ".table.DeltaDynamicTableFactory")).isTrue();
    assertThat(CLASSES.contain(BASE + ".catalog.UnityCatalogCatalog")).isTrue();
    assertThat(CLASSES.contain(BASE + ".testkit.UnityCatalogServer")).isTrue();
    assertThat(CLASSES.contain(BASE + ".examples.Quickstart")).isTrue();
    assertThat(CLASSES.contain(BASE + ".core.testing.TestTables")).isFalse();
  }

  @Test
  void everyPublicClassIsMarkedApiOrInternal() {
    classes()
        .that()
        .resideInAnyPackage(LIBRARY)
        .and()
        .arePublic()
        .and()
        .areTopLevelClasses()
        .and()
        .resideOutsideOfPackage("..internal..")
        .and()
        .doNotHaveSimpleName("package-info")
        .should()
        .beAnnotatedWith(PublicEvolving.class)
        .orShould()
        .beAnnotatedWith(Experimental.class)
        .orShould()
        .beAnnotatedWith(Public.class)
        .orShould()
        .beAnnotatedWith(Internal.class)
        .because("users must see which classes they may rely on")
        .check(CLASSES);
  }

  @Test
  void internalPackagesHoldNoApi() {
    classes()
        .that()
        .resideInAPackage(BASE + "..internal..")
        .should()
        .notBeAnnotatedWith(PublicEvolving.class)
        .andShould()
        .notBeAnnotatedWith(Experimental.class)
        .andShould()
        .notBeAnnotatedWith(Public.class)
        .check(CLASSES);
  }

  @Test
  void coreKnowsNeitherUnityCatalogNorFlinksRuntime() {
    noClasses()
        .that()
        .resideInAPackage(BASE + ".core..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            UC,
            COMMON,
            SINK,
            SOURCE,
            TABLE,
            CATALOG,
            TESTKIT,
            "io.unitycatalog..",
            "org.apache.flink.runtime..",
            "org.apache.flink.streaming..",
            "org.apache.flink.api.connector..",
            "org.apache.flink.table.connector..",
            "org.apache.flink.table.factories..",
            "org.apache.flink.table.catalog..")
        .check(CLASSES);
  }

  @Test
  void onlyTheKernelAdapterReachesIntoKernelInternals() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE, UC, COMMON, SINK, SOURCE, TABLE, CATALOG)
        .and()
        .resideOutsideOfPackage(BASE + ".core.kernel..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.delta.kernel.internal..")
        .because("a Kernel upgrade should be one room's work: core.kernel wraps Kernel's internals")
        .check(CLASSES);
  }

  @Test
  void unityCatalogClientKnowsNeitherTheSinkNorFlink() {
    noClasses()
        .that()
        .resideInAPackage(UC)
        .should()
        .dependOnClassesThat(
            flinkBeyondItsAnnotationsAndTypes()
                .or(inPackage(BASE + ".common"))
                .or(inPackage(BASE + ".sink"))
                .or(inPackage(BASE + ".source"))
                .or(inPackage(BASE + ".table"))
                .or(inPackage(BASE + ".catalog")))
        .check(CLASSES);
  }

  @Test
  void whatTheDirectionsShareKnowsNoDirection() {
    noClasses()
        .that()
        .resideInAPackage(COMMON)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(SINK, SOURCE, TABLE, CATALOG, TESTKIT)
        .check(CLASSES);
  }

  @Test
  void theSinkAndTheSourceKnowNeitherEachOtherNorTheSqlLayer() {
    noClasses()
        .that()
        .resideInAPackage(SINK)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(SOURCE, TABLE, CATALOG, TESTKIT)
        .check(CLASSES);
    noClasses()
        .that()
        .resideInAPackage(SOURCE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(SINK, TABLE, CATALOG, TESTKIT)
        .check(CLASSES);
  }

  /**
   * The sink's options are the one exception: users import them from the sink's API package, and
   * the sink's parts read them; they are a leaf (see {@link #theSinkOptionsAreALeaf}), so reading
   * them closes no loop of substance.
   */
  @Test
  void noTwoPackagesDependOnEachOther() {
    slices()
        .matching(BASE + ".(**)")
        .should()
        .beFreeOfCycles()
        .ignoreDependency(DescribedPredicate.alwaysTrue(), sinkOptions())
        .because("a package is a room: what it needs comes from rooms below it")
        .check(CLASSES);
  }

  @Test
  void theSinkOptionsAreALeaf() {
    noClasses()
        .that(sinkOptions())
        .should()
        .dependOnClassesThat(
            inPackage(BASE + ".sink")
                .and(DescribedPredicate.not(sinkOptions()))
                .or(inPackage(BASE + ".source"))
                .or(inPackage(BASE + ".table"))
                .or(inPackage(BASE + ".catalog")))
        .check(CLASSES);
  }

  private static DescribedPredicate<JavaClass> sinkOptions() {
    return DescribedPredicate.describe(
        "are the sink's options",
        type -> type.getBaseComponentType().getName().startsWith(BASE + ".sink.DeltaSinkOptions"));
  }

  @Test
  void theTestServerStandsAlone() {
    noClasses()
        .that()
        .resideInAPackage(BASE + ".testkit..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(CORE, UC, COMMON, SINK, SOURCE, TABLE, CATALOG)
        .check(CLASSES);
  }

  @Test
  void theQuickstartUsesOnlyTheApi() {
    noClasses()
        .that()
        .resideInAPackage(BASE + ".examples..")
        .should()
        .dependOnClassesThat(outsideTheApi())
        .because("the Quickstart is the file users copy")
        .check(CLASSES);
  }

  /** A class of the library that carries no API marker, itself or on a class enclosing it. */
  private static DescribedPredicate<JavaClass> outsideTheApi() {
    return DescribedPredicate.describe(
        "are of the library but outside its public API",
        type -> {
          if (!type.getPackageName().startsWith(BASE + ".")
              || type.getPackageName().startsWith(BASE + ".examples")) {
            return false;
          }
          JavaClass outer = type;
          while (outer.getEnclosingClass().isPresent()) {
            outer = outer.getEnclosingClass().get();
          }
          JavaClass top = outer;
          return API_MARKERS.stream().noneMatch(top::isAnnotatedWith);
        });
  }

  /**
   * Flink's classes other than its stability annotations and the table types and row data that
   * core's API takes ({@code flink-table-common}).
   */
  private static DescribedPredicate<JavaClass> flinkBeyondItsAnnotationsAndTypes() {
    return DescribedPredicate.describe(
        "are Flink classes beyond its annotations, table types and row data",
        type ->
            type.getPackageName().startsWith("org.apache.flink")
                && !type.getPackageName().equals("org.apache.flink.annotation")
                && !type.getPackageName().startsWith("org.apache.flink.table.types")
                && !type.getPackageName().startsWith("org.apache.flink.table.data"));
  }

  private static DescribedPredicate<JavaClass> inPackage(String prefix) {
    return DescribedPredicate.describe(
        "are in " + prefix, type -> type.getPackageName().startsWith(prefix));
  }

  private static boolean isMainClass(Location location) {
    return !location.contains("/test-classes/")
        && !location.contains("-tests.jar")
        && !location.contains("/testing/")
        && !location.contains("/flinkdelta/it/")
        && !location.contains("/flinkdelta/benchmarks/")
        && !location.contains("/flinkdelta/s3testkit/");
  }
}
