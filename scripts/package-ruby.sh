#!/usr/bin/env bash
# The Ruby platform gem: dist/siwa_mock-VERSION-x86_64-linux.gem is the helper (clients/ruby, its
# gemspec) plus the static binary as libexec/siwa-mock and its SHA-256, which SiwaMock.find_binary uses
# when neither a path nor $SIWA_MOCK_BINARY is given (nokogiri's pattern: one gem per platform; RubyGems
# picks the one matching the machine). Not a gem executable: RubyGems' wrapper would `load` the ELF.
# Reproducible: RubyGems stamps every entry with SOURCE_DATE_EPOCH.
#
#   bash scripts/package-ruby.sh --binary .build/release/siwa-mock [--out dist]
source "$(dirname "$0")/package-lib.sh"
stage="$PKG_WORK/gem"
mkdir -p "$stage/libexec"
cp -R "$PKG_ROOT/clients/ruby/lib" "$PKG_ROOT/clients/ruby/siwa_mock.gemspec" "$PKG_ROOT/LICENSE" "$stage/"
cp "$PKG_STRIPPED" "$stage/libexec/siwa-mock"
echo "$PKG_SHA256  siwa-mock" > "$stage/libexec/siwa-mock.sha256"
(cd "$stage" && VERSION="$PKG_VERSION" OUT="$PKG_OUT" ruby -e '
  require "rubygems/package"
  spec = Gem::Specification.load("siwa_mock.gemspec")
  spec.version = ENV.fetch("VERSION")
  spec.platform = Gem::Platform.new("x86_64-linux")
  spec.files = (spec.files + ["LICENSE", "libexec/siwa-mock", "libexec/siwa-mock.sha256"]).sort
  file = Gem::Package.build(spec)
  File.rename(file, File.join(ENV.fetch("OUT"), file))
  puts File.join(ENV.fetch("OUT"), file)
' | tail -n 1)
