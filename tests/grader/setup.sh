#!/usr/bin/env bash
# setup.sh -- Gradescope runs this once, as root, when it builds the autograder
# image: the compiler, Criterion, libseccomp (the runner's syscall filter),
# python3 (results.json) and a user kept for running submissions.
set -e
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  build-essential libcriterion-dev libseccomp-dev python3 procps util-linux
id grader-run >/dev/null 2>&1 ||
  useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin grader-run
# What holds no student code (the judges, the runner's own objects) is built once,
# here, rather than for every submission.
bash "$(dirname "$0")/pack/grader/grade.sh" --prebuild
