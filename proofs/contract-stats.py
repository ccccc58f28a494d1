#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""How much the ACSL contracts repeat themselves.

Usage: python3 proofs/contract-stats.py [folder ...]   (default: src spec proofs)

A clause is one requires, ensures, assigns, assumes, terminates, decreases,
complete or disjoint of a function contract (behaviors included; loop
annotations and assertions are not contract clauses).  Prints:
  - every clause: how many repeat another clause verbatim (labels included);
  - the labelled share of the predicate clauses (requires, ensures; an
    assumes is named by its behavior);
  - the clauses that state logic inline, i.e. all but frames (assigns),
    behavior bookkeeping (complete, disjoint) and conjunctions of named
    predicates: how many repeat another verbatim, label aside.  A named
    predicate (spec/) applied by several contracts is not a repetition of its
    logic; a twin function's identical frame is not either.
"""
import collections
import glob
import re
import sys

KEYWORD = (r'(?:behavior\s+\w+\s*:\s*)?(?:requires|ensures|assigns|assumes|terminates|'
           r'decreases|complete|disjoint|loop\s+\w+|frees|allocates|exits)\b')


def contract_clauses(folders):
    for path in sorted(f for d in folders for f in glob.glob(d + '/**/*.[ch]', recursive=True)):
        text = open(path, encoding='utf-8').read()
        for block in re.findall(r'/\*@(.*?)\*/', text, re.S) + re.findall(r'//@(.*)', text):
            block = re.sub(r'//[^\n]*', '', block).replace('/@', '').replace('@/', '')
            block = ' '.join(block.split())
            starts = [m.start(1) for m in re.finditer(r'(?:^|[;{}]\s*)(' + KEYWORD + ')', block)]
            for i, start in enumerate(starts):
                clause = block[start:starts[i + 1] if i + 1 < len(starts) else len(block)]
                clause = clause[:clause.rfind(';') + 1] if ';' in clause else clause
                clause = re.sub(r'^behavior\s+\w+\s*:\s*', '', clause).strip()
                if not clause.startswith('loop'):
                    yield clause


def without_label(clause):
    return re.sub(r'^(requires|ensures|assumes)\s+\w+\s*:(?!:)\s*', r'\1 ', clause)


def only_named(clause):
    if clause.startswith(('assigns', 'complete', 'disjoint')):
        return True
    body = re.sub(r'^\w+\s+', '', without_label(clause)).rstrip(';').strip()
    # a predicate's name, its labels if any ({Pre, Post}), its arguments
    application = r'[a-z_][a-z0-9_]*(?:\{[^{}]*\})?\((?:[^()]|\([^()]*\))*\)'
    return all(re.fullmatch(application, part.strip()) for part in body.split('&&'))


def repeated(items):
    counts = collections.Counter(items)
    return sum(1 for item in items if counts[item] > 1)


def main():
    clauses = list(contract_clauses(sys.argv[1:] or ['src', 'spec', 'proofs']))
    predicates = [c for c in clauses if c.startswith(('requires', 'ensures'))]
    labelled = [c for c in predicates if without_label(c) != c]
    inline = [without_label(c) for c in clauses if not only_named(c)]
    print(f'{len(clauses)} clauses, {repeated(clauses)} repeat another verbatim; '
          f'{len(labelled)} of {len(predicates)} requires/ensures labelled')
    print(f'{len(inline)} state logic inline, {repeated(inline)} of them repeat another '
          f'verbatim ({100 * repeated(inline) / max(1, len(inline)):.0f}%)')


main()
