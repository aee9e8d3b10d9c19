/** An application that uses dmmodel's public API; the implementation is found at run time. */
module org.example.consumer {
    requires dev.dmmodel.api;

    exports org.example.consumer;
}
