#!/bin/sh
# Stands in for `./gradlew assembleKitXCFramework`: writes the framework folder.
set -e
out=build/Kit.xcframework
mkdir -p "$out/ios-arm64/Kit.framework"
printf 'Kit 1.0\n' > "$out/Info.plist"
cp src-kmp/Kit.kt "$out/ios-arm64/Kit.framework/Kit"
ln -sf ios-arm64/Kit.framework "$out/Current"
echo "assembled $out"
