// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

// The participants of an election (one header each).
#include <EtcdQt/etcdparticipant.h>
#include <EtcdQt/etcdparticipantsmodel.h>
#include <EtcdQt/etcdparticipantsreply.h>
