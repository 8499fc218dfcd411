// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <recipeview.h>

namespace Cli {

// The decoded view for a terminal: per recipe one summary line, then its entries in queue
// order and its notes, indented; raw keys last.
QString inspectText(const Etcd::Decode::View &view);

} // namespace Cli
