package dev.toolcoach.cluster.node;

import akka.actor.Address;
import akka.actor.AddressFromURIString;

/** Checks a seed node address before Akka sees it, so a typo gives one clear line instead of a failed join. */
final class SeedAddress {

    private SeedAddress() {
    }

    static Address parse(String text) {
        String expected = "expected akka://" + NodeConfigLoader.SYSTEM_NAME + "@HOST:PORT";
        Address address;
        try {
            address = AddressFromURIString.parse(text);
        } catch (Exception e) { // Akka throws a MalformedURLException without declaring it
            throw new NodeConfigException("malformed seed node address '" + text + "': " + expected);
        }
        if (!"akka".equals(address.protocol()) || address.host().isEmpty() || address.port().isEmpty()) {
            throw new NodeConfigException("malformed seed node address '" + text + "': " + expected);
        }
        if (!NodeConfigLoader.SYSTEM_NAME.equals(address.system())) {
            throw new NodeConfigException("seed node address '" + text + "' names actor system '" + address.system()
                    + "': " + expected);
        }
        int port = (Integer) address.port().get();
        if (port < 1 || port > 65535) {
            throw new NodeConfigException("seed node address '" + text + "' has port " + port + " outside 1..65535");
        }
        return address;
    }
}
