# Sourced by ./mvnw (POSIX sh): Maven runs on a JDK 21 or newer (the JDK of the SDK, 25, for the profile
# `tornado`), found as the scripts find it (scripts/lib.sh, find_jdk): $JAVA_HOME if it is new enough, else `java`
# on the PATH if it is, else the newest JDK under /usr/lib/jvm. So ./mvnw works when `java` on the PATH is 17.
accelgeom_min_jdk=21
accelgeom_prev=
for accelgeom_arg in "$@"; do
  case "$accelgeom_prev $accelgeom_arg" in
  "-P "*tornado* | *" -P"*tornado* | *" --activate-profiles "*tornado* | *" --activate-profiles="*tornado*)
    accelgeom_min_jdk=$(sed -n 's:.*<tornado.release>\(.*\)</tornado.release>.*:\1:p' "$scriptDir/pom.xml") ;;
  esac
  accelgeom_prev=$accelgeom_arg
done
if [ -f "$scriptDir/scripts/lib.sh" ] && command -v bash >/dev/null 2>&1; then
  JAVA_HOME=$(bash -c '. "$1/scripts/lib.sh" && find_jdk "$2" && echo "$JAVA_HOME"' _ "$scriptDir" "$accelgeom_min_jdk") ||
    exit 1
  export JAVA_HOME
  # Maven on JDK 24+ warns about its own libraries (jansi, guava): noise for our users
  case "${MAVEN_OPTS-}" in
  *--enable-native-access=ALL-UNNAMED*) ;;
  *)
    if [ "$(bash -c '. "$1/scripts/lib.sh" && jdk_major "$2"' _ "$scriptDir" "$JAVA_HOME")" -ge 24 ]; then
      MAVEN_OPTS="${MAVEN_OPTS-} --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"
      export MAVEN_OPTS
    fi
    ;;
  esac
fi
unset accelgeom_min_jdk accelgeom_prev accelgeom_arg
