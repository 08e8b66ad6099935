# No TODO in the sources: those of the change list under --since, else all.
if [ -n "$DUET_CHANGED_FILES" ]; then files=$(grep '^src/' "$DUET_CHANGED_FILES"); else files=$(ls src/*); fi
for file in $files; do
  if grep -n TODO "$file"; then exit 1; fi
done
