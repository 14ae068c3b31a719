#!/usr/bin/env bash
# Release check (issue 23), publishing nothing: deploys the whole reactor with the release profile (sources and
# javadoc jars, javadoc with doclint and warnings as errors) into target/staging, then checks what a public
# repository checks (.ci/CheckRelease.java): POM metadata, jar + sources + javadoc for core, ldi and labtree,
# the BOM, and that jmh, examples and the sinks were not deployed. Tests are not run here (.ci/run runs them).
set -euo pipefail
cd "$(dirname "$0")/.."
staging="$PWD/target/staging"
rm -rf "$staging"
start=$SECONDS
./mvnw -B -ntp -q -Prelease -DskipTests deploy -DaltDeploymentRepository="local::file://$staging"
java .ci/CheckRelease.java "$staging"
echo "release check: $((SECONDS - start)) s"
