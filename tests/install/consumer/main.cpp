// A user's program: includes every public header, links the installed library (the
// project also compiles each public header on its own).
#include <EtcdQt/EtcdMutex> // the generated CamelCase headers are installed too
#include <EtcdQt/EtcdQt>
#include <EtcdQt/EtcdRangeReply>

#include <QtCore/qcoreapplication.h>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client;
    const bool disconnected = client.state() == EtcdClient::State::Disconnected;
    const bool encoded = Etcd::decodeInt64(Etcd::encodeInt64(42)) == 42;
    const bool policy = EtcdRetryPolicy::bounded(2).nextDelay(1, {}).has_value();
    if (!disconnected || !encoded || !policy)
        return 1;
    std::printf("consumer ok\n");
    return 0;
}
