#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The EtcdQt authors
# SPDX-License-Identifier: Apache-2.0
"""Lists the public API that has no qdoc comment, one 'file:line: (qdoc) warning:' line each.

qdoc 6.4 says nothing about an undocumented member: it marks it internal and leaves it out.
Run with --showinternal, it writes those nodes to the index with status="internal" (and
access="private", whatever their real access), so the index alone cannot tell a private
member from an undocumented public one. This script reads the header line qdoc recorded for
each such node and decides its access from the nearest access specifier above it.
QML types are C++ classes qdoc does not parse as QML, so it cannot see an undocumented one:
every QML_NAMED_ELEMENT in qml/*.h must have a \\qmltype in the index.
usage: undocumented.py <etcdqt.index from a --showinternal run> <source root>
"""
import glob
import re
import sys
import xml.etree.ElementTree as ET

# What moc, Q_DECLARE_PRIVATE and Q_GADGET add, and what C++ generates: never documented.
GENERATED = re.compile(r'^(qt_\w+|metaObject|staticMetaObject|d_func|q_func|d_ptr|'
                       r'QPrivateSignal|QtGadgetHelper|tr|trUtf8|QMetaTypeId|anonymous)$')
ACCESS = re.compile(r'^\s*(public|protected|private)\b[^:]*:|^\s*(Q_SIGNALS|signals)\s*:')
# Where the public headers are: the library's and the test kit's (EtcdQt::TestKit).
PUBLIC_DIRS = ('lib/include/', 'tests/shared/')
HEAD = re.compile(r'^\s*(?:template\s*<.*>\s*)?(class|struct)\s+(?:\w+\s+)*?(\w+)\s*(?:final)?\s*'
                  r'(?::[^;{]*)?\{?\s*$')


def access_at(lines, lineno):
    """'public', 'protected' or 'private' for the declaration at 1-based lineno."""
    for line in reversed(lines[:lineno - 1]):
        m = ACCESS.match(line)
        if m:
            return 'public' if m.group(2) else m.group(1)
        h = HEAD.match(line)
        if h:
            return 'public' if h.group(1) == 'struct' else 'private'
    return 'public'  # namespace scope


def undocumented_qml_types(tree, root):
    """file:line warnings for QML types registered in qml/*.h without a \\qmltype."""
    documented = {n.get('name') for n in tree.iter('qmlclass')}
    out = []
    for path in sorted(glob.glob(root + 'qml/*.h')):
        with open(path, encoding='utf-8') as f:
            for number, line in enumerate(f, 1):
                m = re.search(r'QML_NAMED_ELEMENT\((\w+)\)', line)
                if m and m.group(1) not in documented:
                    out.append(f"{path.replace(root, '')}:{number}: (qdoc) warning: "
                               f"Undocumented QML type '{m.group(1)}'")
    return out


def main():
    index, root = sys.argv[1], sys.argv[2].rstrip('/') + '/'
    cache = {}
    tree = ET.parse(index)
    qml = undocumented_qml_types(tree, root)
    for line in qml:
        print(line)
    found = len(qml)
    for node in tree.iter():
        if node.get('status') != 'internal' or node.tag in ('module', 'qmlmodule'):
            continue
        name, path = node.get('name', ''), node.get('filepath', '')
        public = path.replace(root, '').startswith(PUBLIC_DIRS) and path.endswith('.h')
        if GENERATED.match(name) or not public or 'Internal' in node.get('fullname', ''):
            continue
        if path not in cache:
            with open(path, encoding='utf-8') as f:
                cache[path] = f.read().split('\n')
        line = int(node.get('lineno', '0'))
        if node.tag != 'property' and access_at(cache[path], line) == 'private':
            continue
        what = node.get('signature') or node.get('fullname') or name
        print(f"{path.replace(root, '')}:{line}: (qdoc) warning: Undocumented {node.tag} '{what}'")
        found += 1
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
