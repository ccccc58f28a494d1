# SPDX-License-Identifier: ISC
# Bash completion for dpsel: the commands, each command's options (asked
# of the tool itself, `dpsel COMMAND --help`, so that they are always the
# ones it accepts), the values of --mechanism and --task, and file names.
# Installed as share/bash-completion/completions/dpsel; to try it from the
# source tree: . completion/dpsel.bash

_dpsel_commands="select pmf params curve audit quantile account help"

# The long options of command $2, as the tool $1 lists them in its help.
_dpsel_options() {
    "$1" "$2" --help 2>/dev/null | sed -n 's/^  \(--[a-z-]*\).*/\1/p'
}

# Whether option $3 of command $2 takes a value ("  --epsilon E" in help).
_dpsel_takes_value() {
    "$1" "$2" --help 2>/dev/null | grep -q -e "^  $3 [^ ]"
}

_dpsel() {
    local tool=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
    local prev=${COMP_WORDS[COMP_CWORD-1]} command=${COMP_WORDS[1]}
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ]; then
        mapfile -t COMPREPLY < <(compgen -W "$_dpsel_commands --help --version" -- "$cur")
        return
    fi
    case $command in
        help)
            [ "$COMP_CWORD" -eq 2 ] \
                && mapfile -t COMPREPLY < <(compgen -W "${_dpsel_commands% help}" -- "$cur")
            return ;;
        select|pmf|params|curve|audit|quantile|account) ;;
        *) return ;;
    esac
    case $prev in
        --mechanism) mapfile -t COMPREPLY < <(compgen -W "pf em rnm" -- "$cur"); return ;;
        --task) mapfile -t COMPREPLY < <(compgen -W "mode median" -- "$cur"); return ;;
        --*) _dpsel_takes_value "$tool" "$command" "$prev" && return ;;  # a number: none offered
    esac
    case $cur in
        -*) mapfile -t COMPREPLY < <(compgen -W "$(_dpsel_options "$tool" "$command")" -- "$cur") ;;
        *)
            case $command in
                params) ;;
                account) mapfile -t COMPREPLY < <(compgen -W "em: pf: rnm:" -- "$cur")
                         compopt -o nospace ;;
                *) compopt -o filenames
                   mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            esac ;;
    esac
}

complete -F _dpsel dpsel
