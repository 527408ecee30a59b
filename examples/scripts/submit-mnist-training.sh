#!/bin/bash
set -ex
arena submit pytorch \
    --name=mnist-pytorch \
    --gpus=1 \
    --workers=1 \
    --image=cloudnative4ai/torch-samples:cuda-mnist \
    --data=mydataset:/data \
    'python /workspace/main.py --epochs 2 --data /data --save-model --save-model-path /data/ckpt'

while true; do
    sleep 5
    status=$(arena get mnist-pytorch -o json | jq .status | tr -d '"')
    if [ "$status" == "SUCCEEDED" ]; then
        break
    fi
done
