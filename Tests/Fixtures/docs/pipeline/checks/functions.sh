# Every source file under $1 declares a function; prints the ones that do not.
status=0
for file in $(find "$1" -type f | sort); do
  grep -q 'fun' "$file" || { echo "$file:1: error: expected a function"; status=1; }
done
[ "$status" = 0 ] && echo "$1: every file declares a function"
exit $status
