#!/usr/bin/env bash
# setup.sh -- Gradescope runs this once, as root, when it builds the autograder image.
set -e
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  build-essential libcriterion-dev
