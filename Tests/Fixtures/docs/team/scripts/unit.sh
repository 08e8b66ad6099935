mkdir -p build
if [ -n "$GITHUB_JOB" ]; then r='<failure message="expected: 2 but was: 1"/>'; code=1; else r=''; code=0; fi
printf '<testsuite name="app.CartTest"><testcase classname="app.CartTest" name="addsItem" time="0.01">%s</testcase></testsuite>\n' "$r" > build/TEST-app.CartTest.xml
exit $code
