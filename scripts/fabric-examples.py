#!/usr/bin/env python3
"""Write the example fabrics of assets/fabrics/ (run from the crate root).

- fattree-4x2-*: a 2-level fat tree of 4 leaves and 2 spines (36-port EDR
  switches), 6 cables from every leaf to every spine, 24 adapters per leaf,
  in ibnetdiscover, ibsim and BookSim anynet formats. Spines are switches
  0 and 1 (so the default up*/down* root is a spine), leaves 2..5; leaf
  ports 1-24 take adapters, 25-30 go to spine 1, 31-36 to spine 2.
- irregular-9-ibnetdiscover.txt: 9 switches of a lab cluster grown over
  time: uneven hosts per switch (0 to 4), one doubled cable, HDR and EDR
  cables.
"""
import os

OUT = "assets/fabrics"
VEN, SWDEV, CADEV = "0x2c9", "0xcb20", "0x1017"


def sw_guid(i):
    return 0x7CFE900300A5A000 + 0x100 * i


def ca_guid(h):
    return 0x0C42A10300B1C000 + 0x10 * h


def fattree():
    spines, leaves, par, hosts = 2, 4, 6, 24
    n = spines + leaves
    # Discovery order, as ibnetdiscover prints it from a host on leaf01:
    # leaf01, then the spines, then the other leaves.
    leaf_ids = [0] + list(range(spines + 1, n))
    spine_ids = list(range(1, spines + 1))
    names = [""] * n
    for i, s in enumerate(spine_ids):
        names[s] = f"MF0;spine{i + 1:02d}:MSB7700/U1"
    for i, s in enumerate(leaf_ids):
        names[s] = f"MF0;leaf{i + 1:02d}:MSB7700/U1"
    lid = {s: s + 1 for s in range(n)}
    # ports[s][p] = ("S", t, q) or ("H", h)
    ports = [dict() for _ in range(n)]
    host_lid = {}
    for li, leaf in enumerate(leaf_ids):
        for k in range(hosts):
            h = li * hosts + k
            ports[leaf][k + 1] = ("H", h)
            host_lid[h] = n + 1 + h
        for si, spine in enumerate(spine_ids):
            for k in range(par):
                p = hosts + si * par + k + 1
                q = li * par + k + 1
                ports[leaf][p] = ("S", spine, q)
                ports[spine][q] = ("S", leaf, p)
    return n, names, lid, ports, host_lid, leaves * hosts, 36, lambda s, p: "4xEDR"


def irregular():
    n = 9
    names = [f"lab-sw{i}" for i in range(n)]
    descs = [f"lab-sw{i} Mellanox Technologies" for i in range(n)]
    links = [(0, 1), (0, 2), (0, 3), (1, 4), (2, 4), (2, 5), (3, 6), (4, 7),
             (5, 7), (5, 8), (6, 8), (7, 8), (1, 2), (1, 2), (3, 5)]
    edr = {(3, 6), (6, 8), (3, 5)}
    per = [3, 3, 0, 4, 2, 2, 3, 3, 4]
    ports = [dict() for _ in range(n)]
    speed = {}
    host_lid = {}
    h = 0
    for s in range(n):
        for k in range(per[s]):
            ports[s][k + 1] = ("H", h)
            host_lid[h] = n + 1 + h
            h += 1
    nxt = [max(list(ports[s].keys()) + [0]) + 1 for s in range(n)]
    for a, b in links:
        pa, pb = nxt[a], nxt[b]
        nxt[a] += 1
        nxt[b] += 1
        ports[a][pa] = ("S", b, pb)
        ports[b][pb] = ("S", a, pa)
        sp = "4xEDR" if (a, b) in edr else "4xHDR"
        speed[(a, pa)] = speed[(b, pb)] = sp
    lid = {s: s + 1 for s in range(n)}
    return n, descs, lid, ports, host_lid, h, 40, lambda s, p: speed.get((s, p), "4xHDR")


def host_desc(h):
    return f"node{h + 1:03d} HCA-1"


def ibnetdiscover(fabric, path, initiated_from=None):
    n, names, lid, ports, host_lid, nhosts, nports, speed = fabric
    host_at = {}
    for s in range(n):
        for p, peer in ports[s].items():
            if peer[0] == "H":
                host_at[peer[1]] = (s, p)
    out = ["#", "# Topology file: generated on Wed Nov 25 09:12:44 2026", "#",
           "# Initiated from node %016x port %016x" % (ca_guid(0), ca_guid(0) + 1), ""]
    for s in range(n):
        g = sw_guid(s)
        out += [f"vendid={VEN}", f"devid={SWDEV}", f"sysimgguid=0x{g:x}",
                f"switchguid=0x{g:x}({g:x})",
                f'Switch\t{nports} "S-{g:016x}"\t\t# "{names[s]}" enhanced port 0 lid {lid[s]} lmc 0']
        for p in sorted(ports[s]):
            peer = ports[s][p]
            if peer[0] == "H":
                h = peer[1]
                out.append(f'[{p}]\t"H-{ca_guid(h):016x}"[1]({ca_guid(h) + 1:x}) \t\t# "{host_desc(h)}" lid {host_lid[h]} {speed(s, p)}')
            else:
                t, q = peer[1], peer[2]
                out.append(f'[{p}]\t"S-{sw_guid(t):016x}"[{q}]\t\t# "{names[t]}" lid {lid[t]} {speed(s, p)}')
        out.append("")
    for h in range(nhosts):
        g = ca_guid(h)
        s, p = host_at[h]
        out += [f"vendid={VEN}", f"devid={CADEV}", f"sysimgguid=0x{g:x}", f"caguid=0x{g:x}",
                f'Ca\t1 "H-{g:016x}"\t\t# "{host_desc(h)}"',
                f'[1]({g + 1:x}) \t"S-{sw_guid(s):016x}"[{p}]\t\t# lid {host_lid[h]} lmc 0 "{names[s]}" lid {lid[s]} {speed(s, p)}',
                ""]
    with open(os.path.join(OUT, path), "w") as f:
        f.write("\n".join(out) + "\n")


def ibsim(fabric, path):
    """ibsim style: short node ids, Hca records, w=/e= options, switch-to-switch
    cables listed once (from the leaves), adapters' cables from the adapters."""
    n, names, lid, ports, host_lid, nhosts, nports, speed = fabric
    short = [names[s].split(";")[1].split(":")[0] for s in range(n)]
    out = ["# ibsim network file: 2-level fat tree, 4 leaves x 2 spines, 6 cables per",
           "# leaf-spine pair, 24 adapters per leaf (EDR: w=2 is 4x, e=2 is EDR).", ""]
    host_at = {}
    for s in range(n):
        out.append(f'Switch\t{nports} "{short[s]}"\t# "{names[s]}" enhanced port 0 lid {lid[s]} lmc 0')
        for p in sorted(ports[s]):
            peer = ports[s][p]
            if peer[0] == "H":
                host_at[peer[1]] = (s, p)
            elif "leaf" in short[s]:  # listed once, from the leaf
                out.append(f'[{p}]\t"{short[peer[1]]}"[{peer[2]}]\tw=2 e=2')
        out.append("")
    for h in range(nhosts):
        s, p = host_at[h]
        out += [f'Hca\t1 "node{h + 1:03d}"\t# "{host_desc(h)}"', f'[1]\t"{short[s]}"[{p}]\tw=2 e=2', ""]
    with open(os.path.join(OUT, path), "w") as f:
        f.write("\n".join(out) + "\n")


def anynet(fabric, path):
    n, names, lid, ports, host_lid, nhosts, nports, speed = fabric
    out = []
    for s in range(n):
        words = [f"router {s}"]
        for p in sorted(ports[s]):
            peer = ports[s][p]
            if peer[0] == "H":
                words.append(f"node {peer[1]}")
        for p in sorted(ports[s]):
            peer = ports[s][p]
            if peer[0] == "S" and peer[1] < s:
                words.append(f"router {peer[1]}")
        out.append(" ".join(words))
    with open(os.path.join(OUT, path), "w") as f:
        f.write("\n".join(out) + "\n")


os.makedirs(OUT, exist_ok=True)
ft = fattree()
ibnetdiscover(ft, "fattree-4x2-ibnetdiscover.txt")
ibsim(ft, "fattree-4x2.ibsim")
anynet(ft, "fattree-4x2.anynet")
ibnetdiscover(irregular(), "irregular-9-ibnetdiscover.txt")
