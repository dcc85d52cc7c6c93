#!/bin/bash
# A stand-in for the agent CLIs in cli_agent_test: copied under a CLI's
# executable name (claude, codex, cursor-agent, opencode, aider, mini), it
# behaves as that CLI does in the non-interactive mode the adapter uses. It
#   - takes the prompt from where that CLI does (argument, stdin or file) and
#     writes it to .standin-prompt; its argv goes to .standin-argv (one per
#     line), its environment to .standin-env, the network interfaces it sees to
#     .standin-netdev;
#   - appends a marker line to kernel.fake, the fake task's editable file;
#   - prints a few lines in that CLI's output format, usage included.
# STANDIN_MODE (passed in through pass_env) changes the ending: "sleep" hangs
# (to be killed at the time limit), "logged_out" prints that CLI's own
# not-logged-in message, "fail" exits with code 3. STANDIN_LIST names paths
# whose presence is written to .standin-list.
set -u
cli=$(basename "$0")
ws=$PWD
args=("$@")

# The argument after the first occurrence of $1.
arg_after() {
  local i
  for ((i = 0; i + 1 < ${#args[@]}; i++)); do
    if [[ ${args[i]} == "$1" ]]; then
      printf '%s' "${args[i + 1]}"
      return
    fi
  done
}

printf '%s\n' "$@" >"$ws/.standin-argv"
env >"$ws/.standin-env"
tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort >"$ws/.standin-netdev"
for p in ${STANDIN_LIST-}; do
  if [[ -e $p ]]; then echo "$p"; fi
done >"$ws/.standin-list"

case "$cli" in
  claude) arg_after -p >"$ws/.standin-prompt" ;;
  codex) cat >"$ws/.standin-prompt" ;;  # the prompt argument is "-"
  cursor-agent | opencode) printf '%s' "${args[${#args[@]} - 1]}" >"$ws/.standin-prompt" ;;
  aider) cat -- "$(arg_after --message-file)" >"$ws/.standin-prompt" ;;
  mini) arg_after -t >"$ws/.standin-prompt" ;;
  *)
    echo "standin: unknown CLI name '$cli'" >&2
    exit 2
    ;;
esac

echo "standin-edit: $cli" >>"$ws/kernel.fake"

# STANDIN_NET: "HOST:PORT ..." to reach through the proxy the environment
# names (as the real CLIs do), and straight; results in .standin-net.
for target in ${STANDIN_NET-}; do
  proxy=${HTTPS_PROXY-}
  proxy=${proxy#http://}
  if [[ -n $proxy ]] && exec 3<>"/dev/tcp/${proxy%:*}/${proxy##*:}" 2>/dev/null; then
    printf 'CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n' "$target" "$target" >&3
    IFS= read -r -t 10 status <&3
    while IFS= read -r -t 10 line <&3 && [[ $line != $'\r' && -n $line ]]; do :; done
    reply=
    if [[ $status == *" 200 "* ]]; then
      printf 'ping' >&3
      IFS= read -r -t 10 -n 9 reply <&3
    fi
    exec 3<&-
    echo "proxy $target ${status%$'\r'} $reply"
  else
    echo "proxy $target none"
  fi
  if (exec 4<>"/dev/tcp/${target%:*}/${target##*:}") 2>/dev/null; then
    echo "direct $target connected"
  else
    echo "direct $target refused"
  fi
done >"$ws/.standin-net"

mode=${STANDIN_MODE-}
if [[ $mode == sleep ]]; then
  echo "standin: working for a long time"
  sleep 314159
  exit 0
fi
if [[ $mode == fail ]]; then
  echo "standin: something broke" >&2
  exit 3
fi

if [[ $mode == logged_out ]]; then
  case "$cli" in
    claude)
      echo '{"type":"system","subtype":"init","session_id":"s1","model":"standin"}'
      echo '{"type":"result","subtype":"success","is_error":true,"result":"Invalid API key · Please run /login"}'
      exit 1
      ;;
    codex)
      echo '{"type":"thread.started","thread_id":"t1"}'
      echo '{"type":"turn.failed","error":{"message":"exceeded retry limit, last status: 401 Unauthorized"}}'
      echo 'ERROR: exceeded retry limit, last status: 401 Unauthorized' >&2
      exit 1
      ;;
    cursor-agent)
      echo 'Warning: The provided API key is invalid.' >&2
      exit 1
      ;;
    opencode)
      echo '{"type":"error","timestamp":1,"sessionID":"ses_1","error":{"name":"ProviderAuthError","data":{"message":"Anthropic API key is missing."}}}'
      exit 1
      ;;
    aider)
      # Aider reports the failed request and still exits 0.
      echo 'litellm.AuthenticationError: AnthropicException - invalid x-api-key'
      echo 'The API provider is not able to authenticate you. Check your API key.'
      exit 0
      ;;
    mini)
      echo 'litellm.exceptions.AuthenticationError: AnthropicException - invalid x-api-key' >&2
      exit 1
      ;;
  esac
fi

case "$cli" in
  claude)
    echo '{"type":"system","subtype":"init","session_id":"s1","model":"standin"}'
    echo '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"standin: editing kernel.fake"}]}}'
    echo '{"type":"result","subtype":"success","is_error":false,"num_turns":3,"result":"done","total_cost_usd":0.0123,"usage":{"input_tokens":1200,"output_tokens":340,"cache_read_input_tokens":1000,"cache_creation_input_tokens":50}}'
    ;;
  codex)
    echo '{"type":"thread.started","thread_id":"t1"}'
    echo '{"type":"turn.started"}'
    echo '{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"standin: editing kernel.fake"}}'
    echo '{"type":"turn.completed","usage":{"input_tokens":2000,"cached_input_tokens":500,"output_tokens":300}}'
    echo 'codex progress goes to stderr' >&2
    ;;
  cursor-agent)
    echo '{"type":"system","subtype":"init","session_id":"s1","model":"standin"}'
    echo '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"standin: editing kernel.fake"}]}}'
    echo '{"type":"result","subtype":"success","is_error":false,"duration_ms":1200,"result":"done","usage":{"inputTokens":900,"outputTokens":120}}'
    ;;
  opencode)
    echo '{"type":"step_start","timestamp":1,"sessionID":"ses_1","part":{"type":"step-start"}}'
    echo '{"type":"text","timestamp":2,"sessionID":"ses_1","part":{"type":"text","text":"standin: editing kernel.fake"}}'
    echo '{"type":"step_finish","timestamp":3,"sessionID":"ses_1","part":{"type":"step-finish","tokens":{"input":100,"output":20,"reasoning":5,"cache":{"read":50,"write":0}},"cost":0.001}}'
    echo '{"type":"step_finish","timestamp":4,"sessionID":"ses_1","part":{"type":"step-finish","tokens":{"input":200,"output":30,"reasoning":0,"cache":{"read":60,"write":10}},"cost":0.002}}'
    ;;
  aider)
    echo 'Aider v0.86.1'
    echo 'Main model: standin with whole edit format'
    echo 'standin: editing kernel.fake'
    echo 'Tokens: 1.2k sent, 340 received. Cost: $0.01 message, $0.01 session.'
    echo 'Applied edit to kernel.fake'
    echo 'Tokens: 2k sent, 100 received. Cost: $0.02 message, $0.03 session.'
    ;;
  mini)
    echo 'mini-swe-agent (step 1, $0.02):'
    echo 'standin: editing kernel.fake'
    out=$(arg_after -o)
    printf '%s\n' '{"info":{"model_stats":{"instance_cost":0.042,"api_calls":7},"exit_status":"Submitted"},"messages":[],"trajectory_format":"mini-swe-agent-1.1"}' >"$out"
    ;;
esac
exit 0
