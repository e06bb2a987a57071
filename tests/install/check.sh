#!/usr/bin/env bash
# check.sh SRC BUILD - install libptx into a temporary prefix, build
# examples/opcount.c against the installed copy with pkg-config and with
# find_package(ptx), run both, then build the .deb and check its contents.
set -euo pipefail
src=$1 build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
input=$src/tests/install/sample.ptx
expect=$src/tests/install/sample.opcount

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/pyptx-roundtrip include/ptx/ptx.h include/ptx/ast.h lib/libptx.a \
         lib/pkgconfig/ptx.pc lib/cmake/ptx/ptxConfig.cmake share/man/man1/pyptx-roundtrip.1 \
         share/man/man3/ptx.3; do
    [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
so=$(readlink "$prefix/lib/libptx.so")
[ "$so" = libptx.so.0 ] || { echo "FAIL: libptx.so -> $so, expected libptx.so.0"; exit 1; }
objdump -p "$prefix/lib/libptx.so.0" | grep -q 'SONAME *libptx.so.0' \
    || { echo "FAIL: soname"; exit 1; }

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
cc "$src/examples/opcount.c" $(pkg-config --cflags --libs ptx) -o "$tmp/opcount_pc"
cc "$src/examples/opcount.c" $(pkg-config --cflags ptx) \
   "$prefix/lib/libptx.a" $(pkg-config --libs-only-l --static ptx | sed 's/-lptx//') \
   -o "$tmp/opcount_pc_static"
LD_LIBRARY_PATH=$prefix/lib "$tmp/opcount_pc" "$input" > "$tmp/pc.out"
"$tmp/opcount_pc_static" "$input" > "$tmp/pc_static.out"

cmake -S "$src/tests/install/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
      -DOPCOUNT_SOURCE="$src/examples/opcount.c" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
"$tmp/consumer/opcount_static" "$input" > "$tmp/fp_static.out"
LD_LIBRARY_PATH=$prefix/lib "$tmp/consumer/opcount_shared" "$input" > "$tmp/fp_shared.out"
for out in pc pc_static fp_static fp_shared; do
    diff -u "$expect" "$tmp/$out.out" || { echo "FAIL: opcount ($out) output"; exit 1; }
done
echo "ok: installed, opcount built 4 ways (pkg-config/find_package, shared/static)"

(cd "$build" && cpack -G DEB -B "$tmp/deb" >/dev/null)
deb=$(ls "$tmp"/deb/*.deb)
dpkg-deb -c "$deb" > "$tmp/deb.list"
for f in ./usr/bin/pyptx-roundtrip ./usr/lib/libptx.so.0.1.0 ./usr/include/ptx/ptx.h \
         ./usr/lib/pkgconfig/ptx.pc ./usr/share/man/man1/pyptx-roundtrip.1; do
    grep -q " $f\$" "$tmp/deb.list" || grep -q " $f -> " "$tmp/deb.list" \
        || { echo "FAIL: $f missing from $(basename "$deb")"; cat "$tmp/deb.list"; exit 1; }
done
dpkg-deb -f "$deb" Package Version
echo "ok: $(basename "$deb") holds $(wc -l < "$tmp/deb.list") entries"

# dpkg -i / dpkg -r on this machine (root only, and only when no other copy
# of the package is installed, so that nothing of the user's is replaced)
if [ "$(id -u)" = 0 ] && ! dpkg -s pyptx-c >/dev/null 2>&1; then
    dpkg -i "$deb" >/dev/null
    /usr/bin/pyptx-roundtrip --version | grep -q '^pyptx-roundtrip ' \
        || { echo "FAIL: installed pyptx-roundtrip does not run"; dpkg -r pyptx-c; exit 1; }
    dpkg -r pyptx-c >/dev/null
    [ ! -e /usr/bin/pyptx-roundtrip ] && [ ! -e /usr/lib/libptx.so.0 ] \
        || { echo "FAIL: files left after dpkg -r"; exit 1; }
    echo "ok: dpkg -i and dpkg -r are clean"
fi
