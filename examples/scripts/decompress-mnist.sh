#!/bin/bash
set -ex

cd /data/mnist

gzip -d --keep t10k-images-idx3-ubyte.gz
gzip -d --keep t10k-labels-idx1-ubyte.gz
gzip -d --keep train-images-idx3-ubyte.gz
gzip -d --keep train-labels-idx1-ubyte.gz
