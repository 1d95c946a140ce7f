#!/usr/bin/env python3
"""Attribute a callgrind profile (taken with --dump-instr=yes) to routelab's
own source lines: each instruction is charged to the innermost inlined frame
that lies in this repository's src/ (so bounds checks and Vec indexing
inlined from the standard library count where they are used). Prints the
total per file, then the top lines, in instructions per simulated cycle.

    python3 scripts/profile-lines.py CALLGRIND_OUT BINARY CYCLES [TOP]

See docs/performance.md ("Where routelab's time goes") for the full recipe.
"""
import collections
import os
import re
import subprocess
import sys


def parse_pos(tok, prev):
    if tok == '*':
        return prev
    if tok[0] in '+-':
        return prev + int(tok, 0)
    return int(tok, 0)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    out_file, binary, cycles = sys.argv[1], sys.argv[2], int(sys.argv[3])
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 40
    binary_name = os.path.realpath(binary)
    src = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), 'src') + '/'
    costs = collections.Counter()
    names, ob, addr, line, skip = {}, None, 0, 0, False
    with open(out_file) as f:
        for raw in f:
            l = raw.rstrip('\n')
            m = re.match(r'c?ob=\((\d+)\)(?: (.*))?', l)
            if m:
                if m.group(2):
                    names[m.group(1)] = os.path.realpath(m.group(2))
                if l.startswith('ob='):
                    ob = names.get(m.group(1))
                continue
            if l.startswith('calls='):
                skip = True  # the next cost line is the call's inclusive cost
                continue
            if not l or not (l[0].isdigit() or l[0] in '+-*'):
                continue
            parts = l.split()
            addr = parse_pos(parts[0], addr)
            if len(parts) > 2:
                line = parse_pos(parts[1], line)
            if skip:
                skip = False
                continue
            if ob == binary_name and len(parts) >= 3:
                costs[addr] += int(parts[-1])
    if not costs:
        sys.exit(f'no costs for {binary_name} in {out_file} (was it run with --dump-instr=yes?)')
    addrs = sorted(costs)
    frames, cur = {}, None
    res = subprocess.run(['addr2line', '-a', '-i', '-e', binary] + [hex(a) for a in addrs],
                         capture_output=True, text=True, check=True).stdout
    for l in res.split('\n'):
        if l.startswith('0x'):
            cur = int(l, 16)
            frames[cur] = []
        elif l and cur is not None:
            frames[cur].append(l)
    by_line, by_file = collections.Counter(), collections.Counter()
    for a, c in costs.items():
        fr = frames.get(a, [])
        pick = next((x for x in fr if src in x), fr[0] if fr else '?')
        pick = re.sub(r' \(discriminator \d+\)', '', pick).replace(src, '')
        by_line[pick] += c
        by_file[pick.rsplit(':', 1)[0]] += c
    total = sum(costs.values())
    print(f'{total / cycles:.0f} instructions per cycle in {binary}')
    for name, c in by_file.most_common(12):
        print(f'{c / cycles:10.0f} {100 * c / total:5.1f}%  {name}')
    print()
    for name, c in by_line.most_common(top):
        print(f'{c / cycles:10.0f} {100 * c / total:5.1f}%  {name}')


if __name__ == '__main__':
    main()
