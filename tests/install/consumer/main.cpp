// A user's program: includes every public header, links the installed library (the
// project also compiles each public header on its own).
#include <EtcdQt/EtcdMutex> // the generated CamelCase headers are installed too
#include <EtcdQt/EtcdPrometheusExporter> // EtcdQt::Prometheus
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
    // The metrics: a registry on the client, served by the exporter on a free loopback port.
    auto registry = std::make_shared<EtcdMetricsRegistry>();
    client.setMetrics(registry);
    EtcdPrometheusExporter exporter(registry);
    const bool serving = exporter.listen() && exporter.serverPort() > 0
        && registry->prometheusText().contains("# TYPE etcdqt_rpc_duration_seconds histogram");
    // The library's messages in German, built into the installed library.
    const bool translated = EtcdQt::installTranslator(QLocale(QLocale::German));
    if (!disconnected || !encoded || !policy || !serving || !translated)
        return 1;
    std::printf("consumer ok\n");
    return 0;
}
