#!/usr/bin/env bash
# The JUnit 5 extension jar carrying the binary: dist/siwa-mock-junit-VERSION.jar holds the extension
# (clients/java/src/main, compiled for Java 11) and, as resources next to it, the static x86_64 Linux
# binary and its SHA-256 (siwamock/junit/siwa-mock-linux-x86_64{,.sha256}). With no binary configured
# the extension extracts it once to a per-user cache and checks it (PackagedBinary.java).
# Reproducible: entries in sorted order, every time stamp SOURCE_DATE_EPOCH (jar --date, JDK 17+).
#
#   bash scripts/package-java.sh --binary .build/release/siwa-mock [--out dist]
# Needs a JDK (17+) and junit-jupiter-api.jar (Debian's junit5: /usr/share/java, or $JUNIT_JARS).
source "$(dirname "$0")/package-lib.sh"
jars=${JUNIT_JARS:-/usr/share/java}
[ -f "$jars/junit-jupiter-api.jar" ] || pkg_fail "no junit-jupiter-api.jar in $jars (apt-get install junit5, or set JUNIT_JARS)"
classes="$PKG_WORK/classes"
javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC --release 11 -encoding UTF-8 -nowarn -d "$classes" \
  -cp "$jars/junit-jupiter-api.jar:$jars/apiguardian-api.jar:$jars/junit-platform-commons.jar:$jars/opentest4j.jar" \
  $(find "$PKG_ROOT/clients/java/src/main/java" -name '*.java' | sort)
cp "$PKG_STRIPPED" "$classes/siwamock/junit/siwa-mock-linux-x86_64"
echo "$PKG_SHA256  siwa-mock" > "$classes/siwamock/junit/siwa-mock-linux-x86_64.sha256"
mkdir -p "$classes/META-INF"
cp "$PKG_ROOT/LICENSE" "$classes/META-INF/LICENSE"
jar_file="$PKG_OUT/siwa-mock-junit-$PKG_VERSION.jar"
rm -f "$jar_file"
# The entries named one by one in sorted order (a directory argument is listed in file-system order).
(cd "$classes" && find . -type f | LC_ALL=C sort | sed 's|^\./||' > "$PKG_WORK/entries" &&
  xargs -d '\n' jar -J-XX:TieredStopAtLevel=1 --create --file "$jar_file" \
    --date "$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)" < "$PKG_WORK/entries")
echo "$jar_file"
