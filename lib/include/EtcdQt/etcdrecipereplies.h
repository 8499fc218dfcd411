// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

// The reply types of recipe operations (one header each).
#include <EtcdQt/etcdboolreply.h>
#include <EtcdQt/etcdqueueitemreply.h>
#include <EtcdQt/etcdvaluereply.h>
