// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

// Every reply type of EtcdClient (one header each).
#include <EtcdQt/etcddeletereply.h>
#include <EtcdQt/etcdemptyreply.h>
#include <EtcdQt/etcdleasegrantreply.h>
#include <EtcdQt/etcdleaselistreply.h>
#include <EtcdQt/etcdleasetimetolivereply.h>
#include <EtcdQt/etcdlockreply.h>
#include <EtcdQt/etcdmemberlistreply.h>
#include <EtcdQt/etcdputreply.h>
#include <EtcdQt/etcdrangereply.h>
#include <EtcdQt/etcdserverstatusreply.h>
#include <EtcdQt/etcdtxnreply.h>
