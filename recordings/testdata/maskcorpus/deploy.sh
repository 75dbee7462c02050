#!/bin/sh
set -eu
export GITHUB_TOKEN=$(gh auth token)
export API_TOKEN="${API_TOKEN:-}"
PASSWORD_FILE=/run/secrets/db_password
[ "$TOKEN" == "box" ] && echo "token==box"
curl -fsS -H "Authorization: Bearer bearer-planted-Token-0042" https://api.example.com/v1/deploy
curl -fsS -d "token=$TOKEN" https://api.example.com/v1/hook
for key in a b c; do echo "key=$key"; done
