#!/usr/bin/env bash
# The plan learns in the Slurm lab (issue 37): the orchestrator's test through sbatch. Its
# `source "$(dirname "$0")/common.sh"` finds this directory's common.sh (the lab's environment).
PLAN_ARGS=(--scheduler slurm)
source "$(dirname "$0")/../orchestrator/plan_learns.sh"
