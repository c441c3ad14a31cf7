global using Acme.Util;
